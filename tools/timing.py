"""Where the time of a run goes: MLIR's ``--mlir-timing`` report (a tree of the
stages: parsing, checking, each pass with the passes and checks inside
pipelines, lowering, compiling, printing; wall time and share) and xDSL's
``--time-passes`` lines."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from relax_dialect.instrumentation import Instrumentation, Stage

RULE = "===" + "-" * 73 + "==="
TITLE = "... Execution time report ..."


@dataclass
class Timer:
    """The time spent in a stage, over all its runs, and in the stages inside it
    (merged by name, in the order they first ran)."""

    name: str
    seconds: float = 0.0
    children: dict[str, Timer] = field(default_factory=dict)


class TimingReport(Instrumentation):
    """Times every stage; ``render`` gives MLIR's tree report."""

    def __init__(self) -> None:
        self.root = Timer("Total")
        self._open: list[tuple[Timer, float]] = []
        self._start = time.perf_counter()

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        parent = self._open[-1][0] if self._open else self.root
        timer = parent.children.setdefault(stage.name, Timer(stage.name))
        self._open.append((timer, time.perf_counter()))

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        timer, start = self._open.pop()
        timer.seconds += time.perf_counter() - start

    def render(self) -> str:
        """The report, as ``mlir-opt --mlir-timing`` prints it (tree display)."""
        total = time.perf_counter() - self._start
        lines = [
            RULE,
            " " * ((80 - len(TITLE)) // 2) + TITLE,
            RULE,
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]

        def tree(timer: Timer, indent: int) -> None:
            for child in timer.children.values():
                lines.append(_line(child.seconds, total, " " * indent + child.name))
                tree(child, indent + 2)

        tree(self.root, 0)
        rest = total - sum(child.seconds for child in self.root.children.values())
        lines += [_line(rest, total, "Rest"), _line(total, total, "Total")]
        return "\n".join(lines) + "\n"


def _line(seconds: float, total: float, name: str) -> str:
    share = 100.0 * seconds / total if total > 0 else 0.0
    return f"  {seconds:8.4f} ({share:5.1f}%)  {name}"


class PassTimes(Instrumentation):
    """xDSL's ``--time-passes``: ``Pass NAME took S seconds`` after each pass (those
    inside pipelines, then the pipeline), on standard output."""

    def __init__(self) -> None:
        self._starts: list[float] = []

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        if stage.pass_ is not None:
            self._starts.append(time.perf_counter())

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        if stage.pass_ is not None:
            seconds = time.perf_counter() - self._starts.pop()
            print(f"Pass {stage.name} took {seconds:.6f} seconds")
