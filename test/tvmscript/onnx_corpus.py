"""The ONNX corpus (``corpus_onnx/``, made by ``generate_onnx_corpus.py``) run by ``relax-run``,
and its list of known failures. Needs no TVM.

A case ``NAME`` is ``NAME.py`` (TVMScript as TVM 0.25 prints it), ``NAME.npz`` (its inputs by
parameter name), ``NAME.expected.npz`` (ONNX's expected outputs, ``out0``...) and, when the
module has metadata constants, ``NAME.metadata.npz``. ``KNOWN_FAILURES.txt`` has a line
``NAME STAGE: first error message`` for each case that fails today, where ``STAGE`` is
``read`` (the frontend or the checker rejects it, so every backend fails), a backend name, or
``tvmscript`` (TVM does not parse our printed TVMScript back to an equal module).
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np
from generate_onnx_corpus import mismatch

from relax_dialect.frontends.tvmscript.frontend import metadata_constants
from relax_dialect.npz import read_npz
from relax_xdsl.tools.relax_run import main as relax_run

CORPUS = Path(__file__).resolve().parent / "corpus_onnx"
CASES = sorted(path.stem for path in CORPUS.glob("*.py"))
KNOWN_FAILURES = CORPUS / "KNOWN_FAILURES.txt"
RTOL, ATOL = 1e-3, 1e-7
"""ONNX's backend test tolerance (for floating-point outputs; the others compare exactly)."""
_LINE = re.compile(r"^(?P<case>\S+) (?P<stage>\S+): (?P<reason>.+)$")
_ERROR = re.compile(r"\berror: (?P<message>.+)$")


def known_failures(listing: Path = KNOWN_FAILURES) -> dict[tuple[str, str], str]:
    """``(case, stage) -> reason`` from a list of known failures (``KNOWN_FAILURES.txt``; the
    project corpus has one too, of its ``tvmscript`` stage)."""
    found = {}
    for line in listing.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            match = _LINE.match(line)
            if match is None:
                raise ValueError(f"{listing}: bad line {line!r}")
            found[(match["case"], match["stage"])] = match["reason"]
    return found


def expected_failure(known: dict[tuple[str, str], str], case: str, stage: str) -> str | None:
    """Why ``case`` fails at ``stage`` (a backend or ``tvmscript``) today, if it does: its
    own line, or its ``read`` line (a program that is not read fails everywhere)."""
    return known.get((case, stage)) or known.get((case, "read"))


def path(case: str, suffix: str = ".py") -> Path:
    return CORPUS / f"{case}{suffix}"


def constants(case: str) -> list[np.ndarray]:
    """The arrays of the case's ``metadata["relax.expr.Constant"]``."""
    metadata = path(case, ".metadata.npz")
    return metadata_constants(metadata if metadata.exists() else None)


def metadata_options(case: str) -> list[str]:
    """The ``--metadata`` option of ``relax-opt``/``relax-run`` the case needs, if any."""
    metadata = path(case, ".metadata.npz")
    return ["--metadata", str(metadata)] if metadata.exists() else []


def failure(case: str, backend: str, scratch: Path) -> str | None:
    """Why ``relax-run --backend BACKEND`` does not reproduce the case's expected outputs (the
    first error it reports, or how its outputs differ), or ``None`` when it does."""
    argv = [str(path(case)), "--inputs", str(path(case, ".npz")), *metadata_options(case)]
    expected = read_npz(str(path(case, ".expected.npz")))
    return run_failure([*argv, "--backend", backend], expected, scratch / f"{case}.{backend}.npz")


def run_failure(argv: list[str], expected: dict[str, np.ndarray], outputs: Path) -> str | None:
    """Why ``relax-run ARGV --outputs OUTPUTS`` does not give the ``expected`` outputs, or
    ``None`` when it does."""
    errors = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
        status = relax_run([*argv, "--outputs", str(outputs)])
    if status != 0:
        return first_error(errors.getvalue())
    return difference(read_npz(str(outputs)), expected)


def first_error(text: str) -> str:
    """The message of the first ``error:`` line of a tool's output (its location dropped)."""
    for line in text.splitlines():
        if match := _ERROR.search(line):
            return match["message"].strip()
    return text.strip().splitlines()[0] if text.strip() else "failed without a message"


def difference(actual: dict[str, np.ndarray], expected: dict[str, np.ndarray]) -> str | None:
    """How ``actual`` outputs differ from ``expected`` beyond ONNX's tolerance, or ``None``."""
    if sorted(actual) != sorted(expected):
        return f"outputs {sorted(actual)}, expected {sorted(expected)}"
    return mismatch([actual[key] for key in expected], list(expected.values()), RTOL, ATOL)
