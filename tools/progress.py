"""Progress of long work on standard error: on a terminal, a status line that
follows the stages (``relax-lower-to-linalg › convert-relax-to-linalg: 1200/5000
functions lowered``) once the work has taken ``LIVE_AFTER_SECONDS``; otherwise,
when it succeeded after ``SUMMARY_AFTER_SECONDS`` or more, one summary line at the
end. ``--quiet`` switches both off."""

from __future__ import annotations

import shutil
import threading
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
REFRESH_SECONDS = 0.25
"""How often the status line is redrawn between changes of stage (a long stage
shows its time; a count is redrawn at most this often)."""
ELAPSED_AFTER_SECONDS = 2.0
"""A stage that has taken this long shows for how long (``llc-22, 12 s``)."""


@dataclass
class TopStage:
    """A stage run at the top level, for the summary: its time, and the counts
    reported while it ran (``functions lowered``), each its latest."""

    name: str
    seconds: float = 0.0
    counts: dict[str, str] = field(default_factory=dict)


class Progress(Instrumentation):
    """Shows where a run is (see the module's docstring). On a terminal a daemon
    thread redraws the line, so that a long first stage shows too; the hooks
    redraw it when the stage changes."""

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
        self._lock = threading.Lock()
        self._done = threading.Event()
        if self.live:
            threading.Thread(target=self._tick, name="progress", daemon=True).start()

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        with self._lock:
            self._open.append((stage.name, time.perf_counter()))
            self._count = ""
            self._draw(throttled=False)

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        with self._lock:
            name, start = self._open.pop()
            self._failed |= failed
            self._count = ""
            if not self._open:
                top = self._top.setdefault(name, TopStage(name))
                top.seconds += time.perf_counter() - start
                self._clear()  # what comes between stages (output, diagnostics) stays apart

    def progress(self, what: str, done: int, total: int | None) -> None:
        with self._lock:
            self._count = f"{done}/{total} {what}" if total is not None else f"{done} {what}"
            if self._open:
                top = self._top.setdefault(self._open[0][0], TopStage(self._open[0][0]))
                top.counts[what] = self._count
            self._draw()

    def _tick(self) -> None:
        while not self._done.wait(REFRESH_SECONDS):
            with self._lock:
                self._draw()

    def _draw(self, throttled: bool = True) -> None:
        """Redraw the line (a count at most every ``REFRESH_SECONDS``); the caller
        holds the lock."""
        now = time.perf_counter()
        early = now - self._start < LIVE_AFTER_SECONDS
        if not self.live or early or not self._open or self._done.is_set():
            return
        if throttled and now - self._drawn < REFRESH_SECONDS:
            return
        text = f"{self.tool}: {' › '.join(name for name, _ in self._open)}"
        if self._count:
            text += f": {self._count}"
        if (elapsed := now - self._open[-1][1]) >= ELAPSED_AFTER_SECONDS:
            text += f" ({elapsed:.0f} s)"
        width = shutil.get_terminal_size().columns - 1
        self._drawn = now
        self.stream.write("\r\x1b[K" + text[:width])
        self.stream.flush()
        self._shown = True

    def _clear(self) -> None:
        """Erase the line; the caller holds the lock."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False

    def finish(self) -> None:
        """Stop redrawing; clear the status line, or write the summary of work that
        took long."""
        with self._lock:
            self._done.set()
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
