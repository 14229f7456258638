"""What the benchmark scripts share: timing an action, engines timed in turns, and the peak
resident memory (standard library only: ``tvm_stages.py`` imports it under TVM's Python)."""

from __future__ import annotations

import gc
import statistics
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


def interleaved_medians(
    engines: dict[str, Callable[[], object]], rounds: int, calls: int = 1
) -> dict[str, float]:
    """Median CPU milliseconds per call of each engine, the engines taking turns for
    ``rounds`` rounds: a turn is one untimed call, then ``calls`` timed calls, and every other
    round runs the engines in reverse order. Without the untimed call and the reversal, the
    engine timed right after onnxruntime read 1.09–1.13× its own time timed after itself
    (MobileNetV2, one process; docs/benchmarks.md)."""
    samples: dict[str, list[float]] = {name: [] for name in engines}
    names = list(engines)
    for round_ in range(rounds):
        for name in names if round_ % 2 == 0 else names[::-1]:
            engines[name]()
            for _ in range(calls):
                started = time.process_time()
                engines[name]()
                samples[name].append(time.process_time() - started)
    return {name: statistics.median(times) * 1e3 for name, times in samples.items()}


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
