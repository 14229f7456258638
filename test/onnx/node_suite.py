"""ONNX's backend node suite, regenerated offline from the installed ``onnx`` package and
run through ``from_onnx`` on every backend.

    python test/onnx/node_suite.py [--backends reference,lowered,mlir] [--op OP ...]
                                   [--write-known-failures] [--jobs N]

The cases are those of ``onnx.backend.test.case.node.collect_testcases`` that are not
"expanded" (function bodies inlined) and whose graph inputs and outputs are all tensors
(sequences, maps and optionals are counted apart). Each is imported, run on its data set
and compared with ONNX's expected outputs: floating point within ``RTOL``/``ATOL`` (or the
case's own, looser, tolerance), integers, booleans and strings exactly. A case either
passes or fails with a verdict of ``running.py``; ``KNOWN_FAILURES.txt`` lists every
failing ``CASE STAGE: verdict`` (``STAGE``: ``read`` when the import fails, so that every
backend does, else a backend), and ``test_node_suite.py`` expects exactly those failures.
A case refused only because values its operators need at import time come from graph
inputs is imported again with those inputs bound to its data (``from_onnx``'s
``bind_inputs``) and run on the others: its ``CASE bound: INPUTS`` line records it, and
it counts as passed "with bound inputs", apart from those passed as given.
The script prints, per backend, the cases passed in all and by operator, the failures by
kind and, with ``--write-known-failures``, rewrites the lines of the cases and backends it
ran (``--op Conv --backends reference`` after a change to Conv's converter).
"""

from __future__ import annotations

import argparse
import collections
import functools
import multiprocessing
import re
import sys
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
KNOWN_FAILURES = HERE / "KNOWN_FAILURES.txt"
CASE_NAMES = HERE / "NODE_CASES.txt"
"""The names of the suite's tensor cases, in its order: the tests' ids, known without
regenerating the suite (13 s of CPU in each xdist worker's collection)."""
RTOL, ATOL = 1e-3, 1e-4
READ = "read"
"""The stage of a case the importer does not import (it fails on every backend)."""
BOUND = "bound"
"""The stage recording the graph inputs a case is imported with, bound to its data set's
values, because the importer refuses it as given: they decide values its operators need
at import time (``CASE bound: axes``; not a failure)."""
BACKEND_NAMES = ("reference", "lowered", "mlir")
BATCH = 40
"""How many cases the native backend compiles into one library."""
sys.path.insert(0, str(HERE.parent / "tvmscript"))

from onnx_corpus import expected_failure  # noqa: E402
from onnx_corpus import known_failures as corpus_known_failures  # noqa: E402


@dataclass(frozen=True)
class NodeCase:
    """One node test: its model, its data set and the tolerance of its comparison."""

    name: str
    model: object  # onnx.ModelProto
    inputs: tuple[np.ndarray, ...]
    expected: tuple[np.ndarray, ...]
    rtol: float
    atol: float

    @property
    def node(self) -> object:
        return self.model.graph.node[0]

    @property
    def op_type(self) -> str:
        """The operator tested, with its domain unless it is ONNX's (``ai.onnx.ml.Binarizer``)."""
        domain = _domain(self.node.domain)
        return f"{domain}.{self.node.op_type}" if domain else self.node.op_type

    @property
    def input_names(self) -> tuple[str, ...]:
        """The graph inputs, in the order of ``inputs``."""
        return tuple(i.name for i in self.model.graph.input)

    @property
    def opset(self) -> int:
        """The model's opset of the node's domain."""
        domain = _domain(self.node.domain)
        return next(o.version for o in self.model.opset_import if _domain(o.domain) == domain)


@dataclass(frozen=True)
class Suite:
    cases: tuple[NodeCase, ...]
    """The tensor cases, in ONNX's order."""
    others: dict[str, str]
    """The other non-expanded cases, with the types of value that keep them out."""

    def named(self, name: str) -> NodeCase:
        return next(case for case in self.cases if case.name == name)


def _domain(domain: str) -> str:
    return "" if domain == "ai.onnx" else domain


def _array(value: object) -> np.ndarray:
    from onnx import TensorProto, numpy_helper

    return numpy_helper.to_array(value) if isinstance(value, TensorProto) else np.asarray(value)


def _value_kinds(model: object) -> set[str]:
    graph = model.graph
    return {value.type.WhichOneof("value") for value in [*graph.input, *graph.output]}


@functools.cache
def suite() -> Suite:
    """The node suite of the installed ``onnx`` (regenerated: about 12 s)."""
    from onnx.backend.test.case.node import collect_testcases

    cases, others = [], {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the generators' own overflow warnings
        collected = collect_testcases(None)
    for case in collected:
        if "_expanded" in case.name:
            continue
        name = case.name.removeprefix("test_")
        kinds = _value_kinds(case.model) - {"tensor_type"}
        if kinds:
            others[name] = ", ".join(sorted(kind.removesuffix("_type") for kind in kinds))
            continue
        inputs, expected = case.data_sets[0]
        cases.append(
            NodeCase(
                name,
                case.model,
                tuple(map(_array, inputs)),
                tuple(map(_array, expected)),
                max(case.rtol, RTOL),
                max(case.atol, ATOL),
            )
        )
    return Suite(tuple(cases), others)


@dataclass(frozen=True)
class Imported:
    """A case's model as the importer takes it: as given, or with the graph inputs its
    refusals name bound (``BOUND``)."""

    bound: tuple[str, ...]
    program: object | None  # running.Program; None when the import fails
    failure: str | None
    """Why the import fails (with ``bound`` bound), if it does."""
    inputs: tuple[np.ndarray, ...]
    """The values of the graph inputs that are not bound."""

    def stages(self) -> dict[str, str]:
        """Its ``BOUND`` and ``READ`` stages, if any, with their verdicts."""
        found = {BOUND: ", ".join(self.bound)} if self.bound else {}
        return found | ({READ: self.failure} if self.failure is not None else {})


def imported_case(case: NodeCase) -> Imported:
    """The case imported as given; when that is refused only because values needed at
    import time are computed at run time, again with the graph inputs the refusal names
    bound to the case's values (and so on while refusals name more)."""
    from running import Failed, imported

    values = dict(zip(case.input_names, case.inputs, strict=False))
    bound: tuple[str, ...] = ()
    while True:
        try:
            program = imported(case.model, f"{case.name}.onnx", {n: values[n] for n in bound})
        except Failed as failure:
            more = tuple(name for name in failure.to_bind if name not in bound)
            if not more or not set(more) <= values.keys():
                return Imported(bound, None, str(failure), ())
            bound += more
            continue
        inputs = tuple(value for name, value in values.items() if name not in bound)
        return Imported(bound, program, None, inputs)


def verdicts(case: NodeCase, backends: Sequence[str]) -> dict[str, str]:
    """The failing stages of a case (``read``, or backends) with their verdicts, and its
    ``bound`` stage when it has one."""
    from running import verdict

    found = (taken := imported_case(case)).stages()
    if taken.program is None:
        return found
    for backend in backends:
        reason = verdict(taken.program, backend, taken.inputs, case.expected, case.rtol, case.atol)
        if reason is not None:
            found[backend] = reason
    return found


def batched_verdicts(
    cases: Sequence[NodeCase], backend: str = "mlir", size: int = BATCH
) -> dict[str, dict[str, str]]:
    """Every case's failing stages on a native backend, the cases that lower compiled
    ``size`` at a time into one library (``native_batch``; when a batch does not build,
    its cases are compiled one by one, so that the one breaking it is told)."""
    from native_batch import compile_together
    from running import Failed, lowered, verdict

    found: dict[str, dict[str, str]] = {}
    ready = []
    for case in cases:
        found[case.name] = (taken := imported_case(case)).stages()
        if taken.program is None:
            continue
        try:
            lowered(taken.program, backend)
        except Failed as failure:
            found[case.name][backend] = str(failure)
            continue
        ready.append((case, taken))
    for start in range(0, len(ready), size):
        batch = ready[start : start + size]
        try:
            mains = compile_together([taken.program for _, taken in batch])
        except Exception:  # a toolchain failure: compiled alone, each says its own
            mains = [None] * len(batch)
        for (case, taken), main in zip(batch, mains, strict=True):
            reason = verdict(
                taken.program, backend, taken.inputs, case.expected, case.rtol, case.atol, main
            )
            if reason is not None:
                found[case.name][backend] = reason
    return found


def known_failures(listing: Path = KNOWN_FAILURES) -> dict[tuple[str, str], str]:
    """``(case, stage) -> verdict`` from the list of known failures (as the ONNX corpus's)."""
    return corpus_known_failures(listing)


def passed(
    cases: Iterable[NodeCase],
    known: dict[tuple[str, str], str],
    backend: str,
    bound: bool | None = None,
) -> int:
    """How many of the cases pass on a backend: all, or (``bound``) only those imported
    with bound inputs, or (not ``bound``) only those imported as given."""
    return sum(
        expected_failure(known, case.name, backend) is None
        and (bound is None or ((case.name, BOUND) in known) == bound)
        for case in cases
    )


def passed_text(cases: Sequence[NodeCase], known: dict[tuple[str, str], str], backend: str) -> str:
    """The cases passed on a backend, those with bound inputs apart: ``7`` or ``3 + 4 bound``."""
    given, bound = passed(cases, known, backend, False), passed(cases, known, backend, True)
    return f"{given} + {bound} bound" if bound else str(given)


HEADER = """\
# The node-suite cases that fail today, one line per case and stage:
# CASE STAGE: KIND: first message. STAGE is read (the importer does not import the
# model: every backend fails) or a backend. KIND is one of test/onnx/running.py's:
# refused and not lowered are located refusals; error, wrong and crash are bugs.
# The tests expect exactly these to fail. CASE bound: INPUTS is not a failure: the
# case is refused as given and imported with those graph inputs bound to its data.
# Rewrite with: python test/onnx/node_suite.py --write-known-failures [--op OP]
# [--backends reference,lowered,mlir] (the lines of the cases and backends run)
"""


def onnx_version() -> str:
    import onnx

    return onnx.__version__


def listed_version(listing: Path = KNOWN_FAILURES) -> str | None:
    """The ``onnx`` whose node suite the list of known failures is of."""
    match = re.search(r"^# Of onnx (\S+)'s node suite", listing.read_text(), re.MULTILINE)
    return match[1] if match else None


def write_known_failures(
    found: dict[str, dict[str, str]], backends: Sequence[str], listing: Path = KNOWN_FAILURES
) -> None:
    """Rewrite the list with the verdicts ``found`` on ``backends``: the lines of the cases
    and stages examined replaced, the others kept (in the suite's order)."""
    stages = {READ, BOUND, *backends}
    kept = {
        (case, stage): reason
        for (case, stage), reason in known_failures(listing).items()
        if case not in found or (stage not in stages and READ not in found[case])
    }
    fresh = {(case, stage): reason for case, got in found.items() for stage, reason in got.items()}
    merged = {**kept, **fresh}
    order = {stage: index for index, stage in enumerate((BOUND, READ, *BACKEND_NAMES))}
    lines = [
        f"{case.name} {stage}: {merged[(case.name, stage)]}"
        for case in suite().cases
        for stage in sorted(order, key=order.get)
        if (case.name, stage) in merged
    ]
    version = f"# Of onnx {onnx_version()}'s node suite.\n"
    listing.write_text(HEADER + version + "".join(f"{line}\n" for line in lines))
    names = "".join(f"{case.name}\n" for case in suite().cases)
    CASE_NAMES.write_text(f"# The tensor cases of onnx {onnx_version()}'s node suite.\n{names}")


def listed_cases() -> list[str]:
    """The names of `CASE_NAMES`, written with the list of known failures."""
    return [line for line in CASE_NAMES.read_text().splitlines() if not line.startswith("#")]


NATIVE = "mlir"
"""The backend whose cases are compiled in batches (``batched_verdicts``)."""


def _examine(task: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, dict[str, str]]:
    """The verdicts of a task: cases on the per-case backends, or a batch on ``NATIVE``."""
    names, backends = task
    _wire()
    cases = [suite().named(name) for name in names]
    if backends == (NATIVE,):
        return batched_verdicts(cases)
    return {case.name: verdicts(case, backends) for case in cases}


@functools.cache
def _wire() -> None:
    """Set up a process as the tools are (``call_tir`` on the lowered interpreter)."""
    from relax_xdsl.lowering import wire_tir_executor

    wire_tir_executor()


def examine_all(
    cases: Sequence[NodeCase], backends: Sequence[str], jobs: int
) -> dict[str, dict[str, str]]:
    """Every case's failing stages, in the cases' order (``jobs`` worker processes): the
    other backends case by case, then ``NATIVE`` in batches of the cases that import."""
    found: dict[str, dict[str, str]] = {case.name: {} for case in cases}
    others = tuple(b for b in backends if b != NATIVE)
    names = [case.name for case in cases]
    tasks = [((name,), others) for name in names] if others else []
    if NATIVE in backends:
        tasks += [(tuple(names[i : i + BATCH]), (NATIVE,)) for i in range(0, len(names), BATCH)]
    pool = multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=50) if jobs > 1 else None
    results = pool.imap(_examine, tasks) if pool else map(_examine, tasks)
    for done, result in enumerate(results, 1):
        for name, failures in result.items():
            found[name].update(failures)
        if done % 100 == 0:
            print(f"... {done} of {len(tasks)} tasks", file=sys.stderr, flush=True)
    return found


def report(
    cases: Sequence[NodeCase], found: dict[str, dict[str, str]], backends: Sequence[str]
) -> str:
    """Cases passed per backend, failures by kind, and per operator."""
    known = {
        (case, stage): reason for case, stages in found.items() for stage, reason in stages.items()
    }
    lines = [f"{len(cases)} tensor cases, {len(suite().others)} others"]
    for backend in backends:
        lines.append(
            f"{backend}: {passed(cases, known, backend)} of {len(cases)} pass "
            f"({passed(cases, known, backend, False)} as given, "
            f"{passed(cases, known, backend, True)} with bound inputs)"
        )
    kinds = collections.Counter(
        (stage, reason.split(":")[0])
        for stages in found.values()
        for stage, reason in stages.items()
        if stage != BOUND
    )
    for (stage, kind), count in sorted(kinds.items()):
        lines.append(f"  {stage} {kind}: {count}")
    by_op = collections.defaultdict(list)
    for case in cases:
        by_op[case.op_type].append(case)
    lines.append("operator: " + " ".join(backends))
    for op, group in sorted(by_op.items()):
        counts = " ".join(f"{passed_text(group, known, b)}/{len(group)}" for b in backends)
        lines.append(f"{op}: {counts}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default=",".join(BACKEND_NAMES))
    parser.add_argument("--op", action="append", help="only the cases of these operators")
    parser.add_argument("--write-known-failures", action="store_true")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    backends = args.backends.split(",")
    cases = [c for c in suite().cases if args.op is None or c.op_type in args.op]
    found = examine_all(cases, backends, args.jobs)
    print(report(cases, found, backends))
    if args.write_known_failures:
        write_known_failures(found, backends)
    return 0


if __name__ == "__main__":
    sys.exit(main())
