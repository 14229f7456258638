"""What every execution engine provides, and the program they share.

A ``Backend`` has a name, says whether it can run on this machine (and how to
install what it lacks), which constructs of a module it cannot run, and compiles
a function of a ``Program`` into a Python callable on the reference interpreter's
values (NumPy arrays, tuples, ``ShapeValue``, ``PrimValue``). Failures are the
located exceptions the tools report: ``RelaxRuntimeError`` (a run-time check of
the Relax program), ``LoweringError``, ``LoweredCheckError`` (a run-time check of
lowered code), ``LoweredExecutionError`` and ``ToolchainError``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar

from xdsl.dialects.builtin import ModuleOp

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.diagnostics import Diagnostic
from relax_dialect.interpreter import Machine, PackedRegistry, RelaxRuntimeError
from relax_dialect.ops.functions import FunctionOp

from ..host import default_memory_limit
from ..pipeline import lower
from ..threads import DEFAULT_THREADS

Compiled = Callable[..., object]
"""A compiled function: Relax values in, its Relax result out."""


@dataclass(frozen=True)
class RunOptions:
    """What a run asks of the backends; each reads the options that concern it."""

    packed: PackedRegistry = field(default_factory=PackedRegistry)
    """The packed functions that ``call_packed`` and friends call."""
    tile: bool = True
    """Native code: tile and vectorise contractions, convolutions and pooling (the
    transform-dialect schedule); off, linalg operations become plain loops."""
    memory_limit: int = field(default_factory=default_memory_limit)
    """Native code: the bytes a call may hold at once (0: no limit)."""
    threads: int = DEFAULT_THREADS
    """Native code: the threads running parallel loops (results do not depend on it); more
    than one compiles OpenMP loops (``threads``)."""


class Program:
    """A Relax module to run, with what several backends share, each built once
    on first need: the reference interpreter's machine and the lowered module."""

    def __init__(
        self, module: ModuleOp, options: RunOptions | None = None, lowered: ModuleOp | None = None
    ):
        """``lowered``: ``lower(module)``, when the caller already has it."""
        self.module = module
        self.options = options or RunOptions()
        self._lowered = lowered

    def function(self, entry: str) -> FunctionOp:
        """The Relax function ``@entry`` (``RelaxRuntimeError`` when there is none)."""
        function = function_named(self.module, entry)
        if function is None:
            raise RelaxRuntimeError(None, f"no function @{entry} in the module")
        return function

    @cached_property
    def machine(self) -> Machine:
        """The reference interpreter of the module."""
        return Machine(self.module, self.options.packed)

    def lowered(self) -> ModuleOp:
        """The module lowered to linalg/tensor/arith/func, built on the first call (a
        located ``LoweringError`` when it cannot be)."""
        if self._lowered is None:
            self._lowered = lower(self.module)
        return self._lowered

    def lowered_copy(self) -> ModuleOp:
        """A lowered module the caller may change: the shared one copied when a backend has
        built it already, else lowered afresh (and not kept: copying costs as much)."""
        return lower(self.module) if self._lowered is None else self._lowered.clone()


class Backend(ABC):
    """An execution engine of Relax functions."""

    name: ClassVar[str]
    """The name ``relax-run --backend`` takes."""
    runs_lowered: ClassVar[bool] = True
    """Whether it runs the lowered module (``Program.lowered()``) rather than Relax."""

    def unavailable(self) -> str | None:
        """Why it cannot run on this machine, with how to install what it lacks;
        None when it can."""
        return None

    def unsupported(self, program: Program) -> Diagnostic | None:
        """The first construct of the program it cannot run, located; None when
        it can run them all."""
        return None

    @abstractmethod
    def compile(self, program: Program, entry: str) -> Compiled:
        """Function ``@entry`` of the program, ready to call."""
