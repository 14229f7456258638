"""The bundled interpreter of lowered IR (func/arith/math/linalg/tensor/scf/cf/memref on
NumPy). ``run_lowered`` compiles a module's functions into closures and runs one;
every dialect module also registers its kernels into xDSL's ``Interpreter`` as an
``InterpreterFunctions`` class (``INTERPRETER_FUNCTIONS``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.traits import SymbolTable

from relax_dialect.recursion import CALL_DEPTH_GLOBAL, deep_recursion, on_large_stack

from . import arith, cf, func, linalg, math, memref, scf, tensor
from .arguments import argument
from .core import KernelTable, LoweredCheckError, LoweredExecutionError, Program

__all__ = [
    "INTERPRETER_FUNCTIONS",
    "KERNELS",
    "LoweredCheckError",
    "LoweredExecutionError",
    "LoweredProgram",
    "interpreter_for",
    "run_lowered",
]

KERNELS = KernelTable()
"""The kernels of every dialect the interpreter runs."""
for _dialect in (arith, cf, func, linalg, math, memref, scf, tensor):
    KERNELS.update(_dialect.KERNELS)

INTERPRETER_FUNCTIONS: tuple[type[InterpreterFunctions], ...] = (
    arith.ArithFunctions,
    cf.CfFunctions,
    func.FuncFunctions,
    linalg.LinalgFunctions,
    math.MathFunctions,
    memref.MemRefFunctions,
    scf.ScfFunctions,
    tensor.TensorFunctions,
)
"""The kernels as xDSL ``InterpreterFunctions``, one class per dialect."""


def interpreter_for(module: ModuleOp) -> Interpreter:
    """An xDSL interpreter of module running these kernels (index is 64-bit)."""
    interpreter = Interpreter(module, index_bitwidth=64)
    for functions in INTERPRETER_FUNCTIONS:
        interpreter.register_implementations(functions())
    return interpreter


class LoweredProgram:
    """The functions of a lowered module, each compiled once, on first use."""

    def __init__(self, module: ModuleOp, external: Mapping[str, Callable[..., Any]] | None = None):
        self._program = Program(module, KERNELS, dict(external or {}))

    def run(self, name: str, args: Sequence[Any]) -> list[Any]:
        """The results of func.func @name on args (flattened values: arrays for tensors,
        scalars for index/integer/float parameters)."""
        function = self._program.function(name)
        parameters = function.op.function_type.inputs.data
        if len(args) != len(parameters):
            raise LoweredExecutionError(
                f"@{name} takes {len(parameters)} arguments but was given {len(args)}"
            )
        values = [
            argument(value, parameter_type, f"argument {position} of @{name}")
            for position, (value, parameter_type) in enumerate(zip(args, parameters, strict=True))
        ]
        run = function.run
        assert run is not None
        module = self._program.module
        memref.reset_globals(module)

        def call() -> tuple[Any, ...]:
            with deep_recursion(), np.errstate(all="ignore"):
                return run(*values)

        try:  # calls that can recur are counted (``call_depth``): give them a large stack
            counted = SymbolTable.lookup_symbol(module, CALL_DEPTH_GLOBAL) is not None
            results = on_large_stack(call) if counted else call()
        except RecursionError:
            raise LoweredExecutionError(f"@{name}: recursion too deep") from None
        return [_owned(result) for result in results]


def _owned(value: Any) -> Any:
    """value, copied if it is a read-only view (a broadcast or a constant's buffer)."""
    if isinstance(value, np.ndarray) and not value.flags.writeable:
        return value.copy()
    return value


def run_lowered(
    module: ModuleOp,
    name: str,
    args: Sequence[Any],
    external: Mapping[str, Callable[..., Any]] | None = None,
) -> list[Any]:
    """Run func.func @name of module on args; ``external`` binds the names of external
    declarations (``call_packed`` targets) to Python functions. A failed cf.assert
    raises LoweredCheckError; anything else that fails, LoweredExecutionError."""
    return LoweredProgram(module, external).run(name, args)
