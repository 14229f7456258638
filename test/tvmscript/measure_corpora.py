"""Measure the TVMScript corpora (test tooling, run by hand):

* for ``corpus_onnx/``: the share of programs ``relax-run`` reproduces (ONNX's expected
  outputs) on each backend;
* for the project's ``corpus/`` (with TVM): the share of runnable programs whose outputs on
  each backend are TVM's;
* for both (with TVM): the share whose TVMScript as we print it TVM parses back to a module
  structurally equal to its parse of the original;
* (with TVM) the ``relax.*`` operators the ONNX programs use that the dialect lacks, with the
  number of programs each one keeps out.

``--write-known-failures`` rewrites the lists of known failures the tests expect from what it
finds: ``corpus_onnx/KNOWN_FAILURES.txt`` (measure every backend, with TVM) and
``corpus/KNOWN_FAILURES.txt`` (the project corpus's ``tvmscript`` stage)::

    python test/tvmscript/measure_corpora.py [--backends reference,lowered,mlir]
        [--write-known-failures]
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import onnx_corpus
from corpus_harness import CORPUS, diagnostics, load, run_spec
from generate_onnx_corpus import leaves
from onnx_corpus import CASES, KNOWN_FAILURES

from relax_dialect.dialect import Relax
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.ops import operators
from relax_xdsl.lowering.backends import BACKENDS, backend_named

HAVE_TVM = importlib.util.find_spec("tvm") is not None
PROJECT_KNOWN_FAILURES = CORPUS[0].parent / "KNOWN_FAILURES.txt"
"""The project corpus programs whose printing TVM does not parse back equal."""
Outcomes = dict[str, dict[str, str | None]]
"""``program -> stage -> failure`` (``None``: reproduced)."""


def read_failure(path: Path, constants: Sequence[np.ndarray] = ()) -> str | None:
    """The first thing the frontend or the checker says against a program, or ``None``."""
    _, found = diagnostics(path, constants)
    return found[0].message if found else None


def round_trip_failure(path: Path, constants: Sequence[np.ndarray] = ()) -> str | None:
    """Why TVM does not parse our printing of a program back to its parse of the original."""
    import tvm_oracle

    printed = print_tvmscript(load(path, constants))
    return tvm_oracle.structural_difference(path, printed, constants)


def measure_onnx(backends: list[str], round_trip: bool) -> Outcomes:
    """The ONNX corpus: each program on each backend against ONNX's outputs, and its round
    trip through TVM if asked."""
    outcomes: Outcomes = {}
    with tempfile.TemporaryDirectory() as scratch:
        for case in CASES:
            program, arrays = onnx_corpus.path(case), onnx_corpus.constants(case)
            measures = {
                backend: partial(onnx_corpus.failure, case, backend, Path(scratch))
                for backend in backends
            }
            if round_trip:
                measures["tvmscript"] = partial(round_trip_failure, program, arrays)
            outcomes[case] = measure(program, arrays, measures)
    return outcomes


def measure_project(backends: list[str]) -> Outcomes:
    """The project corpus: runnable programs against TVM's outputs, every program's
    round trip (TVM needed)."""
    import tvm_oracle

    outcomes: Outcomes = {}
    with tempfile.TemporaryDirectory() as scratch:
        for path in CORPUS:
            measures = {}
            if (spec := run_spec(path)) is not None:
                inputs = tvm_oracle.generate_inputs(path, spec.entry, spec.sizes)
                expected = tvm_oracle.run(path, inputs, spec.entry)
                for backend in backends:
                    measures[backend] = partial(
                        project_failure, path, spec.entry, inputs, expected, backend, Path(scratch)
                    )
            measures["tvmscript"] = partial(round_trip_failure, path)
            outcomes[path.name] = measure(path, (), measures)
    return outcomes


def measure(
    program: Path, constants: Sequence[np.ndarray], measures: dict[str, Callable[[], str | None]]
) -> dict[str, str | None]:
    """The failure (or ``None``) at each stage: reading, then each measure, unless reading
    fails, which then is the failure at every stage."""
    problem = read_failure(program, constants)
    stages = {"read": problem}
    for stage, run in measures.items():
        stages[stage] = problem if problem is not None else caught(run)
    print(f"{program.name}: {stages}", file=sys.stderr, flush=True)
    return stages


def project_failure(
    path: Path,
    entry: str,
    inputs: dict[str, np.ndarray],
    expected: object,
    backend: str,
    scratch: Path,
) -> str | None:
    """Why ``relax-run`` on a project corpus program does not give TVM's outputs."""
    np.savez(scratch / "in.npz", **inputs)
    argv = [str(path), "--entry", entry, "--inputs", str(scratch / "in.npz")]
    wanted = {f"out{index}": array for index, array in enumerate(leaves(expected))}
    return onnx_corpus.run_failure([*argv, "--backend", backend], wanted, scratch / "out.npz")


def caught(measure: Callable[[], str | None]) -> str | None:
    """A measurement, an exception it raises being its failure."""
    try:
        return measure()
    except Exception as error:  # TVM and the tools raise many kinds
        lines = str(error).strip().splitlines()
        return f"{type(error).__name__}: {lines[0] if lines else ''}"[:300]


def share(outcomes: Outcomes, stage: str) -> str:
    """``reproduced of measured (percent)`` at a stage."""
    measured = [stages[stage] for stages in outcomes.values() if stage in stages]
    passed = measured.count(None)
    percent = 100 * passed / len(measured) if measured else 0.0
    return f"{passed} of {len(measured)} ({percent:.0f}%)"


def report(title: str, outcomes: Outcomes, stages: Iterable[str]) -> None:
    print(f"\n{title}: {len(outcomes)} programs")
    for stage in stages:
        print(f"  {stage}: {share(outcomes, stage)}")
    classes = collections.Counter(
        (stage, re.sub(r"\d+", "N", failure))
        for stages_of in outcomes.values()
        for stage, failure in stages_of.items()
        if failure is not None and (stage == "read" or stages_of["read"] is None)
    )
    print("  failures by stage and first message (digits as N):")
    for (stage, message), count in classes.most_common():
        print(f"    {count:4d} {stage}: {message}")


def missing_operators() -> None:
    """The ``relax.*`` operators of the ONNX programs the dialect lacks, by programs."""
    import tvm_oracle

    ours = set(operators()) | {op.name for op in Relax.operations}
    blocks = collections.Counter()
    unparsed = []
    for case in CASES:
        try:
            program = tvm_oracle.load(onnx_corpus.path(case), onnx_corpus.constants(case))
        except Exception:  # TVM's parser raises many kinds
            unparsed.append(case)
            continue
        blocks.update(sorted(tvm_oracle.operator_names(program) - ours))
    print("\noperators of the ONNX programs the dialect lacks (programs using each):")
    for name, count in blocks.most_common():
        print(f"  {name}: {count}")
    print(f"  (TVM does not parse {len(unparsed)} of the programs: {', '.join(unparsed)})")


def write_known_failures(outcomes: Outcomes, listing: Path, stages: Iterable[str]) -> None:
    """Write the failures at ``stages`` (a program's reading failure alone if it is not read)
    as ``listing``, the list of known failures the tests expect."""
    order = {stage: index for index, stage in enumerate(stages)}
    lines = sorted(
        (order[stage], failure[:200], case, stage)
        for case, stages_of in outcomes.items()
        for stage, failure in stages_of.items()
        if failure is not None and stage in order and (stage == "read" or stages_of["read"] is None)
    )
    header = (
        "# The corpus programs that fail today, one line per program and stage:\n"
        "# PROGRAM STAGE: first error message. STAGE is read (the frontend or the checker\n"
        "# rejects it), a backend of relax-run, or tvmscript (our printing does not parse back\n"
        "# in TVM to an equal module). The tests expect exactly these to fail.\n"
        "# Rewrite with measure_corpora.py --write-known-failures.\n"
    )
    body = "".join(f"{case} {stage}: {failure}\n" for _, failure, case, stage in lines)
    listing.write_text(header + body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--write-known-failures", action="store_true")
    args = parser.parse_args()
    backends = [b for b in args.backends.split(",") if backend_named(b).unavailable() is None]
    start = time.perf_counter()
    onnx = measure_onnx(backends, HAVE_TVM)
    stages = ["read", *backends, "tvmscript"] if HAVE_TVM else ["read", *backends]
    report("corpus_onnx (ONNX's expected outputs)", onnx, stages)
    if args.write_known_failures:
        write_known_failures(onnx, KNOWN_FAILURES, stages)
    if HAVE_TVM:
        project = measure_project(backends)
        report("corpus (TVM's outputs)", project, stages)
        if args.write_known_failures:
            write_known_failures(project, PROJECT_KNOWN_FAILURES, ["tvmscript"])
        missing_operators()
    print(f"\nmeasured in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
