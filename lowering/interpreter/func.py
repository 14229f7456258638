"""func: call and return. A call of an external declaration runs the Python function
bound to its name (``run_lowered(..., external=...)``), or fails naming it."""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl_callable,
    register_impls,
)

from .core import Env, Kernel, KernelTable

KERNELS = KernelTable()
KERNELS.returning(func.ReturnOp)


@KERNELS.region_kernel(func.CallOp)
def _call(op: func.CallOp, env: Env) -> Kernel:
    callee = env.callee(op.callee.string_value())
    return lambda context, *args: callee(context, args)


@register_impls
@KERNELS.implement
class FuncFunctions(InterpreterFunctions):
    """func for xDSL's interpreter, running the same kernels; a declaration is called
    through xDSL's ``impl_external`` functions."""

    @impl_callable(func.FuncOp)
    def call_func(
        self, interpreter: Interpreter, op: func.FuncOp, args: tuple[Any, ...]
    ) -> PythonValues:
        if op.is_declaration:
            return interpreter.call_external(op.sym_name.data, op, args)
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)
