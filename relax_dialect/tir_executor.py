"""What the reference interpreter needs of an executor of ``call_tir`` targets.

Kept apart from ``tir`` (the executor built on xDSL's interpreter): importing any of
xDSL's interpreters imports all of them, about 0.35 s, which every ``relax-opt`` run
would pay for the folding pass alone. ``default_tir_executor`` loads it on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from xdsl.dialects.builtin import ModuleOp

TIRArgument = np.ndarray | int | float | bool
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


def default_tir_executor() -> TIRExecutor:
    """The executor on xDSL's interpreter (``tir.XDSLTIRExecutor``), imported now."""
    from .tir import XDSLTIRExecutor

    return XDSLTIRExecutor()
