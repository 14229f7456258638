"""Limits on recursion: Python's, raised for deep IR and recursive programs, and the
depth of nested Relax calls every backend allows."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

MAX_CALL_DEPTH = 10_000
"""Nested calls of Relax functions a program may make, on every backend; one more is
the located error "recursion too deep" (an endless recursion ends in seconds)."""

MAX_NESTING = 2_000
"""Levels of brackets an input may nest (TVMScript: Python's own limit, 200): deep
enough for any real program, refused in linear time beyond."""

CALL_DEPTH_GLOBAL = "relax_xdsl_call_depth"
"""The global of lowered code counting nested calls (``lowering/call_depth.py``)."""

RECURSION_LIMIT = 20_000
"""Python's recursion limit on an ordinary thread: deep enough for thousands of
nested types or calls, shallow enough that Python reports a ``RecursionError``
before an 8 MiB C stack overflows."""

LARGE_STACK = 1 << 30
"""The stack of ``on_large_stack`` threads (reserved address space, touched only as
deep as the work goes)."""

LARGE_STACK_RECURSION_LIMIT = 250_000
"""Python's recursion limit on a large stack: room for ``MAX_CALL_DEPTH`` nested
calls in either interpreter."""

_local = threading.local()


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Run the body with the recursion limit raised (further on a large stack)."""
    wanted = LARGE_STACK_RECURSION_LIMIT if getattr(_local, "large", False) else RECURSION_LIMIT
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, wanted))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def on_large_stack(work: Callable[[], T]) -> T:
    """``work()``, run on a thread with a ``LARGE_STACK`` stack (unless this thread is
    one already); its exception, if any, is raised here."""
    if getattr(_local, "large", False):
        return work()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        _local.large = True
        try:
            outcome.append(work())
        except BaseException as error:  # re-raised in the calling thread
            failure.append(error)

    thread = threading.Thread(target=run, name="relax-xdsl")
    previous = threading.stack_size(LARGE_STACK)  # applies to threads started now
    try:
        thread.start()
    finally:
        threading.stack_size(previous)
    while thread.is_alive():
        thread.join(0.1)
    if failure:
        raise failure[0]
    return outcome[0]
