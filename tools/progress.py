"""Progress of long work on standard error: on a terminal, a status line that
follows the stages (``relax-lower-to-linalg › convert-relax-to-linalg: 1200/5000
functions lowered``) once the work has taken ``LIVE_AFTER_SECONDS``; otherwise,
when it succeeded after ``SUMMARY_AFTER_SECONDS`` or more, one summary line at the
end. ``--quiet`` switches both off."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

from xdsl.dialects.builtin import ModuleOp

from relax_dialect.instrumentation import Instrumentation, Stage

LIVE_AFTER_SECONDS = 1.0
"""The status line appears once the work has taken this long."""
SUMMARY_AFTER_SECONDS = 5.0
"""Shorter work gets no summary."""
REFRESH_SECONDS = 0.1
"""The status line is redrawn at most this often."""


@dataclass
class TopStage:
    """A stage run at the top level, for the summary: its time, and the counts
    reported while it ran (``functions lowered``), each its latest."""

    name: str
    seconds: float = 0.0
    counts: dict[str, str] = field(default_factory=dict)


class Progress(Instrumentation):
    """Shows where a run is (see the module's docstring)."""

    def __init__(self, tool: str, stream: TextIO):
        self.tool = tool
        self.stream = stream
        self.live = stream.isatty()
        self._start = time.perf_counter()
        self._drawn = 0.0
        self._shown = False
        self._open: list[tuple[str, float]] = []
        self._count = ""
        self._top: dict[str, TopStage] = {}
        self._failed = False

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        self._open.append((stage.name, time.perf_counter()))
        self._count = ""
        self._draw()

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        name, start = self._open.pop()
        self._failed |= failed
        if not self._open:
            top = self._top.setdefault(name, TopStage(name))
            top.seconds += time.perf_counter() - start
            self._clear()  # what comes between stages (output, diagnostics) is not mixed in
            return
        self._count = ""
        self._draw()

    def progress(self, what: str, done: int, total: int | None) -> None:
        self._count = f"{done}/{total} {what}" if total is not None else f"{done} {what}"
        if self._open:
            top = self._top.setdefault(self._open[0][0], TopStage(self._open[0][0]))
            top.counts[what] = self._count
        self._draw()

    def _draw(self) -> None:
        now = time.perf_counter()
        if (
            not self.live
            or now - self._start < LIVE_AFTER_SECONDS
            or now - self._drawn < REFRESH_SECONDS
        ):
            return
        self._drawn = now
        where = " › ".join(name for name, _ in self._open)
        text = f"{self.tool}: {where}{': ' + self._count if self._count else ''}"
        width = shutil.get_terminal_size().columns - 1
        self.stream.write("\r\x1b[K" + text[:width])
        self.stream.flush()
        self._shown = True

    def _clear(self) -> None:
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False

    def finish(self) -> None:
        """Clear the status line, or write the summary of work that took long."""
        self._clear()
        total = time.perf_counter() - self._start
        if self.live or self._failed or total < SUMMARY_AFTER_SECONDS or not self._top:
            return
        self.stream.write(f"{self.tool}: {summary(self._top.values(), total)}\n")
        self.stream.flush()


def summary(stages: Iterable[TopStage], total: float) -> str:
    """``12.3 s: Parser 0.41 s, relax-o2 1.20 s, ...`` with each stage's counts."""
    parts = []
    for top in stages:
        counts = f" ({', '.join(top.counts.values())})" if top.counts else ""
        parts.append(f"{top.name} {top.seconds:.2f} s{counts}")
    return f"{total:.1f} s: " + ", ".join(parts)
