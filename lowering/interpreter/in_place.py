"""Loop-carried tensors that the bundled interpreter updates in place.

Tensors are values: ``tensor.insert`` and ``tensor.insert_slice`` copy their
destination, which would make a loop that updates its carried tensor one element
(or slice) at a time quadratic (a scatter, a scan). A tensor carried by an
``scf.for`` is *updated in place* when, in the loop body, it passes through a chain
of ``insert``/``insert_slice`` destinations to its own position in the
``scf.yield``, and each value of the chain is otherwise only read
(``tensor.extract``, ``tensor.dim``) before the next link, in the same block. The
loop then copies the tensor's initial value once and the inserts of the chain write
into that copy: nothing else can observe the writes.
"""

from __future__ import annotations

from xdsl.dialects import scf, tensor
from xdsl.ir import BlockArgument, Operation, SSAValue

INSERTS = (tensor.InsertOp, tensor.InsertSliceOp)
"""Operations whose operand 1 is the destination, and result the updated tensor."""
READS = (tensor.ExtractOp, tensor.DimOp)
"""Uses that only read scalars from a tensor."""


def updated_in_place(arg: BlockArgument) -> list[Operation] | None:
    """The inserts (in order) updating the carried tensor ``arg`` of an ``scf.for``
    body in place, or None when it is not updated in place."""
    block = arg.block
    loop = block.parent_op()
    if not isinstance(loop, scf.ForOp) or arg.index == 0:
        return None
    order = {op: position for position, op in enumerate(block.ops)}
    links: list[Operation] = []
    value: SSAValue = arg
    while True:
        uses = sorted(value.uses, key=lambda use: order.get(use.operation, -1))
        if not uses or any(
            not isinstance(use.operation, READS) or use.operation not in order for use in uses[:-1]
        ):
            return None
        last = uses[-1]
        link = last.operation
        if isinstance(link, scf.YieldOp) and link.parent_block() is block:
            return links if links and last.index == arg.index - 1 else None
        if not isinstance(link, INSERTS) or last.index != 1 or link not in order:
            return None
        links.append(link)
        value = link.results[0]


def writes_in_place(op: Operation) -> bool:
    """Whether an ``insert``/``insert_slice`` is a link of a chain updated in place."""
    value = op.operands[1]
    while isinstance(value.owner, INSERTS):
        value = value.owner.operands[1]
    if not isinstance(value, BlockArgument):
        return False
    links = updated_in_place(value)
    return links is not None and op in links
