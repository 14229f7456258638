"""Python's recursion limit, raised for deep IR and for recursive programs."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

RECURSION_LIMIT = 20_000
"""Deep enough for thousands of nested types or calls, shallow enough that Python
reports a ``RecursionError`` before the C stack overflows."""


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Run the body with the recursion limit raised to ``RECURSION_LIMIT``."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)
