"""Observing a run: each pass (those inside pipelines too) and the other stages of
a tool (parsing, checking, lowering, compiling, printing), as MLIR's pass
instrumentation does.

A tool installs ``Instrumentation`` objects with ``instrumented(...)``; ``stage``
and ``run_pass`` tell them when a stage begins and ends, and ``report`` how far a
long stage has come. Pipelines run their inner passes through ``run_pass``, so
IR printing, timing and progress see every inner pass through one hook. With no
instrumentation installed, all this costs a context-variable lookup per stage.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


class RunsPasses:
    """A pass made of passes that it runs with ``run_pass`` (a pipeline): the
    instrumentation sees its inner passes, and IR printing shows those, not it."""


@dataclass(frozen=True)
class Stage:
    """A stage of a run: a pass (``pass_``) or another step of the tool, by name
    (``Parser``, ``Verifier``, ``Output``, ``mlir-opt-22``...)."""

    name: str
    pass_: ModulePass | None = None

    @property
    def is_leaf_pass(self) -> bool:
        """Whether it is a pass that is no pipeline."""
        return self.pass_ is not None and not isinstance(self.pass_, RunsPasses)


class Instrumentation:
    """Hooks around every stage; each does nothing unless overridden."""

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        """``stage`` begins (on ``module``, when it works on one)."""

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        """``stage`` ended, by an exception when ``failed``."""

    def progress(self, what: str, done: int, total: int | None) -> None:
        """The current stage has done ``done`` of ``total`` ``what`` (``functions``)."""


_ACTIVE: ContextVar[tuple[Instrumentation, ...]] = ContextVar("instrumentation", default=())


@contextmanager
def instrumented(*instrumentations: Instrumentation) -> Iterator[None]:
    """Notify ``instrumentations`` (after those installed already) within the block."""
    token = _ACTIVE.set(_ACTIVE.get() + instrumentations)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


@contextmanager
def stage(
    name: str, module: ModuleOp | None = None, pass_: ModulePass | None = None
) -> Iterator[None]:
    """Tell the installed instrumentation that the block is the stage ``name``."""
    active = _ACTIVE.get()
    if not active:
        yield
        return
    current = Stage(name, pass_)
    for instrumentation in active:
        instrumentation.before(current, module)
    failed = True
    try:
        yield
        failed = False
    finally:
        for instrumentation in reversed(active):
            instrumentation.after(current, module, failed)


def run_pass(pass_: ModulePass, ctx: Context, module: ModuleOp) -> None:
    """Apply a pass as a stage of its own."""
    with stage(pass_.name, module, pass_):
        pass_.apply(ctx, module)


def report(what: str, done: int, total: int | None = None) -> None:
    """Tell the installed instrumentation how far the current stage has come."""
    for instrumentation in _ACTIVE.get():
        instrumentation.progress(what, done, total)
