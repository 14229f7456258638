"""cf: assert (a failure raises LoweredCheckError with its message) and branches."""

from __future__ import annotations

from typing import Any

from xdsl.dialects import cf
from xdsl.interpreter import InterpreterFunctions, register_impls

from .core import Branch, Kernel, KernelTable, LoweredCheckError

KERNELS = KernelTable()


@KERNELS.kernel(cf.AssertOp)
def _assert(op: cf.AssertOp) -> Kernel:
    message = op.msg.data

    def check(condition: Any) -> tuple[()]:
        if not condition:
            raise LoweredCheckError(message)
        return ()

    return check


@KERNELS.branch(cf.BranchOp)
def _br(op: cf.BranchOp) -> Branch:
    return lambda *args: (op.successor, args)


@KERNELS.branch(cf.ConditionalBranchOp)
def _cond_br(op: cf.ConditionalBranchOp) -> Branch:
    count = len(op.then_arguments)

    def branch(condition: Any, *args: Any) -> tuple[Any, Any]:
        if condition:
            return op.then_block, args[:count]
        return op.else_block, args[count:]

    return branch


@KERNELS.branch(cf.SwitchOp)
def _switch(op: cf.SwitchOp) -> Branch:
    values = op.case_values.get_values() if op.case_values else ()
    sizes = op.case_operand_segments.get_values()
    starts = [sum(sizes[:index]) for index in range(len(sizes))]
    cases = {
        value: (block, start, size)
        for value, block, start, size in zip(values, op.case_blocks, starts, sizes, strict=True)
    }
    defaults = len(op.default_operands)

    def branch(flag: Any, *args: Any) -> tuple[Any, Any]:
        case = cases.get(int(flag))
        if case is None:
            return op.default_block, args[:defaults]
        block, start, size = case
        return block, args[defaults + start : defaults + start + size]

    return branch


@register_impls
@KERNELS.implement
class CfFunctions(InterpreterFunctions):
    """cf for xDSL's interpreter, running the same kernels."""
