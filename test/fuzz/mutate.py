"""Mutation fuzzing of ``relax-opt``'s readers (MLIR text, TVMScript, StableHLO)
and checker.

Mutants are derived from the lit tests (MLIR), the TVMScript corpus and the
StableHLO fixtures and lit tests. Every mutant must either be accepted (and
then print to text that is accepted again, unchanged: Relax's MLIR text, for
StableHLO) or be rejected with located ``FILE:LINE:COL: error:`` diagnostics --
never with an unexpected exception.
``python test/fuzz/mutate.py COUNT [SEED] [mlir|tvmscript|stablehlo]`` runs an
opt-in long campaign and prints its figures.
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from relax_dialect import frontends
from relax_xdsl.tools.relax_opt import RelaxOptMain

CORPUS_DIR = Path(__file__).parents[1] / "filecheck"
TVMSCRIPT_DIR = Path(__file__).parents[1] / "tvmscript"
STABLEHLO_DIR = Path(__file__).parents[1] / "stablehlo" / "fixtures"
STABLEHLO_SIZE = 8_000
"""The StableHLO fixtures mutated: those shorter than this (the others are
longer versions of the same operations)."""
TOKEN = re.compile(r"%[\w.]+|@[\w.]+|![\w.]+|#[\w.]+|\"[^\"]*\"|-?\d+(?:\.\d+)?|\w+|->|\S")
VOCABULARY = [
    "%x",
    "%y",
    "%self",
    "@main",
    "@helper",
    "!relax.object",
    "!relax.tensor",
    "tensor",
    "shape",
    "prim",
    "tuple",
    "func",
    "f32",
    "i64",
    "bool",
    "void",
    "f32x4",
    "i7",
    "ndim",
    "=",
    "[",
    "]",
    "(",
    ")",
    "<",
    ">",
    "{",
    "}",
    ",",
    ":",
    "->",
    "...",
    "0",
    "1",
    "-1",
    "99999999999999999999",
    "n",
    "m",
    "n + 1",
    "floordiv",
    "select",
    "relax.add",
    "relax.return",
    "relax.dataflow",
    "relax.output",
    "relax.if",
    "relax.yield",
    "relax.lambda",
    "relax.match_cast",
    "relax.call",
    "relax.tuple",
    "relax.function",
    "private",
    "impure",
    "recursive",
    "dense",
    '"0x00"',
    "true",
    "1.5",
    "// -----",
    "R.add",
    "R.Tensor",
    "R.Tuple",
    "R.dataflow",
    "R.output",
    "R.match_cast",
    "R.shape",
    "T.int64()",
    "cls",
    "return",
    "if",
    "else:",
    "@R.function",
    "lambda",
    "None",
    '"float32"',
]


RELAX_TYPE = re.compile(r"!relax\.\w+(?:<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>)?")


def tvmscript_corpus() -> list[tuple[str, str]]:
    """The TVMScript corpus programs (those without TIR)."""
    paths = sorted((TVMSCRIPT_DIR / "corpus").glob("*.py"))
    return [(p.name, p.read_text()) for p in paths if "T.prim_func" not in p.read_text()]


def stablehlo_corpus() -> list[tuple[str, str]]:
    """The StableHLO fixtures (the short ones) and lit tests."""
    fixtures = sorted(STABLEHLO_DIR.glob("*.mlir"))
    short = [(p.name, p.read_text()) for p in fixtures if p.stat().st_size < STABLEHLO_SIZE]
    return short + corpus("stablehlo")


def corpus(under: str = "") -> list[tuple[str, str]]:
    """The lit tests (of a directory of them), split into their ``// -----`` chunks."""
    chunks = []
    for path in sorted((CORPUS_DIR / under).rglob("*.mlir")):
        for chunk in path.read_text().split("// -----"):
            lines = [line for line in chunk.splitlines() if not line.lstrip().startswith("//")]
            if any(line.strip() for line in lines):
                chunks.append((path.name, "\n".join(lines) + "\n"))
    return chunks


TENSOR_TYPE = re.compile(r"tensor<[^<>]*>")
TYPE_POOL = sorted({m.group() for _, chunk in corpus() for m in RELAX_TYPE.finditer(chunk)})
TENSOR_POOL = sorted({m.group() for _, c in stablehlo_corpus() for m in TENSOR_TYPE.finditer(c)})


def _tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def _replace_token(text: str, rng: random.Random) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    token = rng.choice(tokens)
    pool = [t.group() for t in tokens] + VOCABULARY
    return text[: token.start()] + rng.choice(pool) + text[token.end() :]


def _kind(token: str) -> str:
    return token[0] if token[0] in '%@!#"' else "digit" if token[0].isdigit() else "other"


def _replace_same_kind(text: str, rng: random.Random) -> str:
    """Swap a token for another of its kind (value, symbol, number...): mostly
    keeps the syntax valid, so the checker rather than the parser is exercised."""
    tokens = _tokens(text)
    if not tokens:
        return text
    token = rng.choice(tokens)
    kind = _kind(token.group())
    pool = [t.group() for t in tokens if _kind(t.group()) == kind]
    return text[: token.start()] + rng.choice(pool) + text[token.end() :]


def _replace_type(text: str, rng: random.Random) -> str:
    """Replace one ``!relax.`` type by another type of the corpus."""
    types = list(RELAX_TYPE.finditer(text))
    if not types:
        return text
    target = rng.choice(types)
    return text[: target.start()] + rng.choice(TYPE_POOL) + text[target.end() :]


def _replace_tensor_type(text: str, rng: random.Random) -> str:
    """Replace one ``tensor<...>`` type by another of the StableHLO corpus."""
    types = list(TENSOR_TYPE.finditer(text))
    if not types:
        return text
    target = rng.choice(types)
    return text[: target.start()] + rng.choice(TENSOR_POOL) + text[target.end() :]


def _delete_tokens(text: str, rng: random.Random) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    first = rng.randrange(len(tokens))
    last = min(len(tokens) - 1, first + rng.randrange(3))
    return text[: tokens[first].start()] + text[tokens[last].end() :]


def _duplicate_line(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    index = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[index])
    return "".join(lines)


def _swap_lines(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def _truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _flip_character(text: str, rng: random.Random) -> str:
    if not text:
        return text
    index = rng.randrange(len(text))
    return text[:index] + chr(rng.randrange(32, 127)) + text[index + 1 :]


MUTATIONS: list[Callable[[str, random.Random], str]] = [
    _replace_token,
    _replace_same_kind,
    _replace_same_kind,
    _replace_type,
    _replace_type,
    _replace_tensor_type,
    _delete_tokens,
    _duplicate_line,
    _swap_lines,
    _truncate,
    _flip_character,
]
LOCATED = re.compile(r"^\S+:\d+:\d+: error: ")


@dataclass
class Campaign:
    """Counts of a fuzzing run and the mutants that broke the contract."""

    accepted: int = 0
    rejected: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.accepted + self.rejected + len(self.failures)


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randrange(1, 4)):
        text = rng.choice(MUTATIONS)(text, rng)
    return text


ACCEPTED = "accepted"
REJECTED = "rejected"


def check_one(
    tool: RelaxOptMain, text: str, suffix: str = ".mlir", again_tool: RelaxOptMain | None = None
) -> str:
    """``accepted``, ``rejected`` (with located errors), or what went wrong; the
    output is read again by ``again_tool`` (default: ``tool``)."""
    try:
        output, diagnostics = tool.process(text, "fuzz" + suffix, 0)
    except Exception as error:  # the contract: never an unexpected exception
        return f"{type(error).__name__}: {error}"
    if diagnostics:
        for diagnostic in diagnostics:
            if not LOCATED.match(str(diagnostic)):
                return f"unlocated diagnostic: {diagnostic}"
        return REJECTED
    again_tool = again_tool or tool
    try:
        again, problems = again_tool.process(output, "printed" + suffix, 0)
    except Exception as error:
        return f"printed output breaks the parser: {type(error).__name__}: {error}"
    if problems:
        return f"printed output is rejected: {problems[0]}"
    if again != output and again_tool is tool:
        return "printing is not a fixed point"
    return ACCEPTED


def run(count: int, seed: int = 0, language: str = "mlir") -> Campaign:
    """Fuzz the MLIR reader (``mlir``), the TVMScript frontend and printer
    (``tvmscript``) or the StableHLO frontend and its conversion (``stablehlo``)."""
    rng = random.Random(seed)
    tvmscript = language == "tvmscript"
    tool = RelaxOptMain(["--emit", "tvmscript"] if tvmscript else [])
    tool.frontend = frontends.lookup(language)
    again_tool = None
    if language == "stablehlo":
        again_tool = RelaxOptMain([])
        again_tool.frontend = frontends.lookup("mlir")
    sources = {"tvmscript": tvmscript_corpus, "stablehlo": stablehlo_corpus}.get(language, corpus)()
    suffix = ".py" if tvmscript else ".mlir"
    campaign = Campaign()
    for _ in range(count):
        _, source = rng.choice(sources)
        text = mutate(source, rng)
        verdict = check_one(tool, text, suffix, again_tool)
        if verdict == ACCEPTED:
            campaign.accepted += 1
        elif verdict == REJECTED:
            campaign.rejected += 1
        else:
            campaign.failures.append((text, verdict))
    return campaign


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    language = sys.argv[3] if len(sys.argv) > 3 else "mlir"
    start = time.perf_counter()
    campaign = run(count, seed, language)
    elapsed = time.perf_counter() - start
    print(
        f"{campaign.total} {language} mutants (seed {seed}) in {elapsed:.1f} s: "
        f"{campaign.accepted} "
        f"accepted, {campaign.rejected} rejected with located errors, "
        f"{len(campaign.failures)} contract failures"
    )
    for text, problem in campaign.failures[:5]:
        print(f"--- {problem}\n{text}")
    return 1 if campaign.failures else 0


if __name__ == "__main__":
    sys.exit(main())
