"""What the benchmark scripts share: timing an action, and the peak resident memory
(standard library only: ``tvm_stages.py`` imports it under TVM's Python)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, action: Callable[[], object]) -> float:
    """The shortest of ``repeat`` timed runs of ``action``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


class CollectorPauses:
    """The seconds the garbage collector paused the program while installed (``with``:
    a ``gc.callbacks`` entry)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __enter__(self) -> CollectorPauses:
        gc.callbacks.append(self._tick)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._tick)

    def _tick(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started


def reset_peak() -> bool:
    """Reset the resident-memory high-water mark (``VmHWM``); False where refused."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        return False
    return True


def peak_mb() -> float:
    """The resident-memory high-water mark of this process, in MiB."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
