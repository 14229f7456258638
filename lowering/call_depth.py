"""The guard on call depth in lowered code.

A recursive Relax program that never stops would, once compiled, either overflow
the native stack or (when LLVM turns the tail call into a loop) allocate until the
machine runs out of memory. Every call that can recur (a call within a cycle of the
call graph, or a closure invocation) is therefore wrapped in a counter kept in the
module's global ``@relax_xdsl_call_depth`` (``CALL_DEPTH_GLOBAL``): it is
incremented and checked against ``MAX_CALL_DEPTH`` before the call (a located
``cf.assert``, "recursion too deep") and decremented after it, on every backend
that runs lowered code. The global is public so that the native entry points can
reset it after a failed check.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue

from relax_dialect.recursion import CALL_DEPTH_GLOBAL, MAX_CALL_DEPTH

from .lowerer import Lowerer

DEPTH_TYPE = MemRefType(i64, [])
TOO_DEEP = f"recursion too deep: more than {MAX_CALL_DEPTH} nested calls"


def enter_call(lw: Lowerer, op: Operation) -> SSAValue:
    """Count one more nested call, failing at ``op`` beyond the limit; returns the
    counter for ``leave_call``."""
    counter = lw.emit_value(memref.GetGlobalOp(CALL_DEPTH_GLOBAL, DEPTH_TYPE))
    depth = lw.emit_value(memref.LoadOp.get(counter, []))
    limit = lw.constant(IntegerAttr(MAX_CALL_DEPTH, i64))
    lw.check(lw.make(arith.CmpiOp, depth, limit, "slt"), op, TOO_DEEP)
    one = lw.constant(IntegerAttr(1, i64))
    lw.emit(memref.StoreOp.get(lw.make(arith.AddiOp, depth, one), counter, []))
    return counter


def leave_call(lw: Lowerer, counter: SSAValue) -> None:
    """Count the call returned."""
    depth = lw.emit_value(memref.LoadOp.get(counter, []))
    one = lw.constant(IntegerAttr(1, i64))
    lw.emit(memref.StoreOp.get(lw.make(arith.SubiOp, depth, one), counter, []))


def declare_counter(module: ModuleOp) -> None:
    """Add the counter global (starting at 0) to the lowered module."""
    zero = DenseIntOrFPElementsAttr.from_list(TensorType(i64, []), [0])
    global_op = memref.GlobalOp.get(
        StringAttr(CALL_DEPTH_GLOBAL), DEPTH_TYPE, zero, StringAttr("public")
    )
    module.body.block.add_op(global_op)


def remove_counter(module: ModuleOp) -> None:
    """Take the guard out of a lowered module (the counter global and every operation
    computed from it), for an engine that refuses recursion and has no mutable
    global memory (IREE)."""
    guard: set[Operation] = set()
    pending: list[Operation] = []
    for op in module.walk():
        if isinstance(op, memref.GlobalOp) and op.sym_name.data == CALL_DEPTH_GLOBAL:
            guard.add(op)
        elif isinstance(op, memref.GetGlobalOp) and op.name_.string_value() == CALL_DEPTH_GLOBAL:
            pending.append(op)
    while pending:
        op = pending.pop()
        if op not in guard:
            guard.add(op)
            pending += [use.operation for result in op.results for use in result.uses]
    for op in list(module.walk(reverse=True)):
        if op in guard:
            op.detach()
            op.erase()
