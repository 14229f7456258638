"""Long host functions split into *parts*: private functions of at most ``PART_OPS`` operations
each, which the function calls in order.

Once its kernels are outlined (``kernels.py``), a host function allocates, checks and calls;
a program of thousands of bindings still makes it thousands of operations long, and the
toolchain is quadratic in a function's length in three places: one-shot bufferization's
alias analysis, ``convert-scf-to-cf`` (the ownership-based deallocation frees every buffer
the function still owns at its end, each behind an ``scf.if``, and lowering each ``if``
splits the block, moving all that follows it) and ``opt-22``. In parts of bounded length
each of these is linear in the program, and a part's buffers are freed when the part returns
rather than when the whole function does.

A part takes the values it uses from before it (the function's arguments, earlier parts'
results) and returns those used after it. A buffer a part returns must be one the caller can
own: where the value is a view of memory the part does not own (a reshaped argument), the
deallocation pass copies it. So a part ends, once it is long enough, at the first operation
after which every value it hands on is a call's result (a kernel's fresh buffer) or not a
tensor; parts are marked ``no_inline`` so that LLVM keeps them apart.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnitAttr
from xdsl.ir import Block, Operation, Region, SSAValue

from .kernels import KERNEL_PREFIX

PART_OPS = 200
"""The length of a part (top-level operations) from which it may end."""
LONGEST_PART = 2 * PART_OPS
"""Where a part ends even if some value it hands on is a view (and is copied)."""


def _hands_on_fresh_values(ops: list[Operation], last_uses: dict[SSAValue, int], end: int) -> bool:
    """Whether every result of ``ops`` used after position ``end`` is a call's or no tensor."""
    return all(
        isinstance(op, func.CallOp) or not isinstance(result.type, TensorType)
        for op in ops
        for result in op.results
        if last_uses.get(result, -1) > end
    )


def _boundaries(ops: list[Operation]) -> list[int]:
    """Where each part of the function body ``ops`` (its terminator last) starts."""
    last_uses: dict[SSAValue, int] = {}
    for position, op in enumerate(ops):
        for nested in op.walk():
            for operand in nested.operands:
                last_uses[operand] = position
    starts, start = [0], 0
    for end in range(len(ops) - 2):  # a part ends before the terminator
        length = end + 1 - start
        if length >= LONGEST_PART or (
            length >= PART_OPS and _hands_on_fresh_values(ops[start : end + 1], last_uses, end)
        ):
            start = end + 1
            starts.append(start)
    return starts


def _used_from_outside(ops: list[Operation]) -> list[SSAValue]:
    """The values ``ops`` (nested regions included) use but do not define, in first use order."""
    defined: set[SSAValue] = set()
    used: dict[SSAValue, None] = {}
    for op in ops:
        for nested in op.walk():
            used.update((operand, None) for operand in nested.operands if operand not in defined)
            for region in nested.regions:
                for block in region.blocks:
                    defined.update(block.args)
            defined.update(nested.results)
    return [value for value in used if value not in defined]


def _outline_part(ops: list[Operation], name: str) -> func.FuncOp:
    """Move ``ops`` into the private function ``name``, called where they were; their
    results used after them become its results."""
    following = ops[-1].next_op
    assert following is not None  # the terminator is never in a part
    inputs = _used_from_outside(ops)
    body = Block(arg_types=[value.type for value in inputs])
    for op in ops:
        op.detach()
        body.add_op(op)
    outputs = [
        result
        for op in ops
        for result in op.results
        if not all(body.is_ancestor(use.operation) for use in result.uses)
    ]
    call = func.CallOp(name, inputs, [value.type for value in outputs])
    following.parent_block().insert_op_before(call, following)  # pyright: ignore[reportOptionalMemberAccess]
    for value, argument in zip(inputs, body.args, strict=True):
        value.replace_uses_with_if(argument, lambda use: body.is_ancestor(use.operation))
    for value, result in zip(outputs, call.results, strict=True):
        value.replace_uses_with_if(result, lambda use: not body.is_ancestor(use.operation))
    body.add_op(func.ReturnOp(*outputs))
    types = ([value.type for value in inputs], [value.type for value in outputs])
    part = func.FuncOp(name, types, Region(body), "private")
    part.attributes["no_inline"] = UnitAttr()
    return part


def split_long_functions(module: ModuleOp) -> None:
    """Split every host function of ``module`` (in place; not a kernel, whose body the
    schedule takes whole) whose single block is longer than ``PART_OPS`` operations into
    parts."""
    names = {op.sym_name.data for op in module.body.block.ops if isinstance(op, func.FuncOp)}
    parts: list[func.FuncOp] = []
    for function in [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]:
        if len(function.body.blocks) != 1 or function.sym_name.data.startswith(KERNEL_PREFIX):
            continue
        ops = list(function.body.block.ops)
        starts = _boundaries(ops)
        if len(starts) == 1:
            continue
        ends = [*starts[1:], len(ops) - 1]  # the terminator stays in the function
        for number, (start, end) in enumerate(zip(starts, ends, strict=True)):
            name = f"{function.sym_name.data}.part{number}"
            while name in names:
                name += "_"
            names.add(name)
            parts.append(_outline_part(ops[start:end], name))
    module.body.block.add_ops(parts)
