"""scf: for, while, if, index_switch and execute_region, with their terminators.

``scf.for`` copies the initial value of a carried tensor that its body updates in
place (``in_place``) once, before the first iteration."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import scf
from xdsl.interpreter import InterpreterFunctions, register_impls

from .core import Env, Kernel, KernelTable
from .in_place import updated_in_place
from .values import dtype_of

KERNELS = KernelTable()
KERNELS.returning(scf.YieldOp, scf.ConditionOp)


@KERNELS.region_kernel(scf.ForOp)
def _for(op: scf.ForOp, env: Env) -> Kernel:
    body = env.region(op.body)
    dtype = dtype_of(op.lb.type)
    owned = [updated_in_place(arg) is not None for arg in op.body.block.args[1:]]
    copies = any(owned)

    def run(context: Any, lower: Any, upper: Any, step: Any, *carried: Any) -> tuple[Any, ...]:
        if copies:
            carried = tuple(v.copy() if own else v for v, own in zip(carried, owned, strict=True))
        for induction in np.arange(lower, upper, step, dtype=dtype):
            carried = body(context, (induction, *carried))
        return carried

    return run


@KERNELS.region_kernel(scf.IfOp)
def _if(op: scf.IfOp, env: Env) -> Kernel:
    then, otherwise = env.region(op.true_region), env.region(op.false_region)
    return lambda context, condition: (then if condition else otherwise)(context, ())


@KERNELS.region_kernel(scf.WhileOp)
def _while(op: scf.WhileOp, env: Env) -> Kernel:
    before, after = env.region(op.before_region), env.region(op.after_region)

    def run(context: Any, *values: Any) -> tuple[Any, ...]:
        while True:
            condition, *forwarded = before(context, values)
            if not condition:
                return tuple(forwarded)
            values = after(context, forwarded)

    return run


@KERNELS.region_kernel(scf.ExecuteRegionOp)
def _execute_region(op: scf.ExecuteRegionOp, env: Env) -> Kernel:
    region = env.region(op.region)
    return lambda context: region(context, ())


@KERNELS.region_kernel(scf.IndexSwitchOp)
def _index_switch(op: scf.IndexSwitchOp, env: Env) -> Kernel:
    cases = dict(zip(op.cases.get_values(), map(env.region, op.case_regions), strict=True))
    default = env.region(op.default_region)
    return lambda context, value: cases.get(int(value), default)(context, ())


@register_impls
@KERNELS.implement
class ScfFunctions(InterpreterFunctions):
    """scf for xDSL's interpreter, running the same kernels."""
