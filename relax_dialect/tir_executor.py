"""The executor of the destination-passing ``func.func`` targets of ``relax.call_tir``:
what the reference interpreter and ``relax-fold-constant`` need of one, and which one
they use when not given one.

The dialect has no executor of its own. The lowering provides one (the bundled
interpreter of lowered IR) and the tools wire it: ``relax-opt``, ``relax-run`` and the
``xdsl.universe`` entry point of plain ``xdsl-opt`` call
``relax_xdsl.lowering.wire_tir_executor()``, which a Python program calls too (or it
passes ``Machine(module, tir=...)``). Without one, the interpreter fails at a
``call_tir`` with ``UNWIRED`` and ``relax-fold-constant`` leaves ``call_tir`` unfolded.

Importing this module costs nothing (no NumPy, no dialect): ``xdsl-opt`` wires the
executor for every run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias

if TYPE_CHECKING:
    import numpy as np
    from xdsl.dialects.builtin import ModuleOp

TIRArgument: TypeAlias = "np.ndarray | int | float | bool"
"""An input of a ``call_tir`` target: a tensor, or a scalar for a prim value or tir_var."""


class TIRExecutor(Protocol):
    """Runs the destination-passing func.func targets of relax.call_tir."""

    def call(
        self,
        module: ModuleOp,
        callee: str,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[np.ndarray]:
        """Call func.func @callee of module with inputs then outputs; return the final
        contents of the outputs (new arrays, same shapes and dtypes as `outputs`)."""
        ...


class TIRExecutionError(Exception):
    """A func.func target that cannot be executed (an unsupported operation, a bad
    argument); the message names the problem and, when known, the operation."""


UNWIRED = (
    "no executor of call_tir targets is wired: call relax_xdsl.lowering.wire_tir_executor() "
    "first, or pass one as Machine(module, tir=...)"
)
"""Why a ``call_tir`` cannot run when no executor is wired."""

_wired: Callable[[], TIRExecutor] | None = None


def use_tir_executor(factory: Callable[[], TIRExecutor]) -> None:
    """Make ``factory`` the maker of the executor used when none is given."""
    global _wired
    _wired = factory


def wired_tir_executor() -> TIRExecutor | None:
    """A new executor from the wired factory; None when none is wired."""
    return None if _wired is None else _wired()
