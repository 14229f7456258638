"""What the benchmark scripts share: timing an action."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(repeat: int, action: Callable[[], object]) -> float:
    """The shortest of ``repeat`` timed runs of ``action``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)
