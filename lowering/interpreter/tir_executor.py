"""The executor of ``relax.call_tir`` targets (``relax_dialect.tir_executor``) on the
lowered interpreter: the destination-passing ``func.func`` targets run vectorised with
NumPy. The tools wire it (``relax_xdsl.lowering.wire_tir_executor``); a Python program
wires it too, or passes it:

    Machine(module, tir=LoweredTIRExecutor())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute
from xdsl.traits import SymbolTable

from relax_dialect.tir_executor import TIRArgument, TIRExecutionError

from . import LoweredCheckError, LoweredExecutionError, LoweredProgram
from .values import element_type


class LoweredTIRExecutor:
    """Runs call_tir targets with the lowered interpreter (compiled once per module):
    finds the callee, checks the number of arguments, runs it, and takes its results
    (or, when it returns nothing, the outputs as it left them) as the outputs."""

    def __init__(self) -> None:
        self._module: ModuleOp | None = None
        self._program: LoweredProgram | None = None

    def call(
        self,
        module: ModuleOp,
        callee: str,
        inputs: Sequence[TIRArgument],
        outputs: Sequence[np.ndarray],
    ) -> list[np.ndarray]:
        """``TIRExecutor.call``."""
        function = _function(module, callee)
        parameter_types = function.function_type.inputs.data
        if len(parameter_types) != len(inputs) + len(outputs):
            raise TIRExecutionError(
                f"@{callee} takes {len(parameter_types)} arguments but was given "
                f"{len(inputs)} inputs and {len(outputs)} outputs"
            )
        if not all(isinstance(output, np.ndarray) for output in outputs):
            raise TIRExecutionError(f"the outputs of @{callee} must be arrays")
        arguments = _arguments(function, inputs, outputs)
        results = self._run(module, function, arguments)
        result_types = function.function_type.outputs.data
        if not results:
            results, result_types = arguments[len(inputs) :], parameter_types[len(inputs) :]
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

    def _program_of(self, module: ModuleOp) -> LoweredProgram:
        if self._module is not module or self._program is None:
            self._module, self._program = module, LoweredProgram(module)
        return self._program

    def _run(self, module: ModuleOp, function: func.FuncOp, arguments: list[Any]) -> list[Any]:
        """function applied to arguments."""
        try:
            return self._program_of(module).run(function.sym_name.data, arguments)
        except (LoweredExecutionError, LoweredCheckError) as error:
            raise TIRExecutionError(str(error)) from error


def _function(module: ModuleOp, name: str) -> func.FuncOp:
    """The func.func @name of module, which must have a body."""
    function = SymbolTable.lookup_symbol(module, name)
    if not isinstance(function, func.FuncOp):
        raise TIRExecutionError(f"no func.func @{name} in the module")
    if function.is_declaration:
        raise TIRExecutionError(f"func.func @{name} has no body")
    return function


def _arguments(
    function: func.FuncOp, inputs: Sequence[TIRArgument], outputs: Sequence[np.ndarray]
) -> list[Any]:
    """The values to call function with: the outputs and memrefs copied (the
    interpreter writes them)."""
    return [
        value.copy()
        if isinstance(value, np.ndarray)
        and (position >= len(inputs) or isinstance(kind, MemRefType))
        else value
        for position, (value, kind) in enumerate(
            zip([*inputs, *outputs], function.function_type.inputs.data, strict=True)
        )
    ]


def _output(value: Any, like: np.ndarray, result_type: Attribute, label: str) -> np.ndarray:
    """The final contents of an output of result_type, as a new array of like's shape
    and dtype."""
    if not isinstance(value, np.ndarray):
        shown = value.item() if isinstance(value, np.generic) else value
        raise TIRExecutionError(f"{label} is {shown!r}, not a tensor")
    if value.shape != like.shape or value.dtype.itemsize != like.dtype.itemsize:
        raise TIRExecutionError(
            f"{label} has shape {list(value.shape)} and element type {element_type(result_type)}; "
            f"expected shape {list(like.shape)} and dtype {like.dtype}"
        )
    return value != 0 if like.dtype == np.bool_ else value.astype(like.dtype)
