"""A ``TIRExecutor`` (``relax_dialect.interpreter.tir``) on the lowered interpreter: the
destination-passing ``func.func`` targets of ``relax.call_tir`` run vectorised with
NumPy instead of element by element in xDSL's interpreter.

    Machine(module, tir=LoweredTIRExecutor())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute

from relax_dialect.interpreter.tir import (
    DestinationPassingExecutor,
    TIRArgument,
    TIRExecutionError,
)

from . import LoweredCheckError, LoweredExecutionError, LoweredProgram
from .values import element_type


def _output(value: Any, like: np.ndarray, result_type: Any, label: str) -> np.ndarray:
    """The final contents of an output, as a new array of like's shape and dtype."""
    if not isinstance(value, np.ndarray):
        shown = value.item() if isinstance(value, np.generic) else value
        raise TIRExecutionError(f"{label} is {shown!r}, not a tensor")
    if value.shape != like.shape or value.dtype.itemsize != like.dtype.itemsize:
        raise TIRExecutionError(
            f"{label} has shape {list(value.shape)} and element type {element_type(result_type)}; "
            f"expected shape {list(like.shape)} and dtype {like.dtype}"
        )
    return value != 0 if like.dtype == np.bool_ else value.astype(like.dtype)


class LoweredTIRExecutor(DestinationPassingExecutor):
    """Runs call_tir targets with the lowered interpreter (compiled once per module)."""

    def __init__(self) -> None:
        self._module: ModuleOp | None = None
        self._program: LoweredProgram | None = None

    def _program_of(self, module: ModuleOp) -> LoweredProgram:
        if self._module is not module or self._program is None:
            self._module, self._program = module, LoweredProgram(module)
        return self._program

    def _arguments(
        self,
        module: ModuleOp,
        function: func.FuncOp,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[Any]:
        """The arguments, outputs and memrefs copied (the interpreter writes them)."""
        return [
            value.copy()
            if isinstance(value, np.ndarray)
            and (position >= len(inputs) or isinstance(kind, MemRefType))
            else value
            for position, (value, kind) in enumerate(
                zip([*inputs, *outputs], function.function_type.inputs.data, strict=True)
            )
        ]

    def _run(self, module: ModuleOp, function: func.FuncOp, arguments: list[Any]) -> list[Any]:
        try:
            return self._program_of(module).run(function.sym_name.data, arguments)
        except (LoweredExecutionError, LoweredCheckError) as error:
            raise TIRExecutionError(str(error)) from error

    def _output(
        self, value: Any, like: np.ndarray, result_type: Attribute, label: str
    ) -> np.ndarray:
        return _output(value, like, result_type, label)
