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
from xdsl.traits import SymbolTable

from relax_dialect.interpreter.tir import TIRArgument, TIRExecutionError

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


class LoweredTIRExecutor:
    """Runs call_tir targets with the lowered interpreter (compiled once per module)."""

    def __init__(self) -> None:
        self._module: ModuleOp | None = None
        self._program: LoweredProgram | None = None

    def _program_of(self, module: ModuleOp) -> LoweredProgram:
        if self._module is not module or self._program is None:
            self._module, self._program = module, LoweredProgram(module)
        return self._program

    def call(
        self,
        module: ModuleOp,
        callee: str,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[np.ndarray]:
        """Call func.func @callee of module with inputs then outputs; return the final
        contents of the outputs (new arrays, same shapes and dtypes as `outputs`)."""
        function = SymbolTable.lookup_symbol(module, callee)
        if not isinstance(function, func.FuncOp):
            raise TIRExecutionError(f"no func.func @{callee} in the module")
        if function.is_declaration:
            raise TIRExecutionError(f"func.func @{callee} has no body")
        parameters = function.function_type.inputs.data
        if len(parameters) != len(inputs) + len(outputs):
            raise TIRExecutionError(
                f"@{callee} takes {len(parameters)} arguments but was given "
                f"{len(inputs)} inputs and {len(outputs)} outputs"
            )
        if not all(isinstance(output, np.ndarray) for output in outputs):
            raise TIRExecutionError(f"the outputs of @{callee} must be arrays")
        arguments = [
            value.copy()
            if isinstance(value, np.ndarray)
            and (position >= len(inputs) or isinstance(kind, MemRefType))
            else value
            for position, (value, kind) in enumerate(
                zip([*inputs, *outputs], parameters, strict=True)
            )
        ]
        try:
            results = self._program_of(module).run(callee, arguments)
        except (LoweredExecutionError, LoweredCheckError) as error:
            raise TIRExecutionError(str(error)) from error
        result_types = function.function_type.outputs.data
        if not results:
            results, result_types = arguments[len(inputs) :], parameters[len(inputs) :]
        elif len(results) != len(outputs):
            raise TIRExecutionError(
                f"@{callee} returned {len(results)} values for {len(outputs)} outputs"
            )
        return [
            _output(result, output, result_type, f"output {position} of @{callee}")
            for position, (result, output, result_type) in enumerate(
                zip(results, outputs, result_types, strict=True)
            )
        ]
