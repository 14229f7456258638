"""``ReverseSequence``: each batch entry's first ``length`` steps reversed, a gather
(``relax.gather_elements``) at positions computed from the lengths; the recurrent
layers' reverse direction uses it too."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Shape, call
from ....dtype import INT64
from ..context import NodeContext
from .registry import converter
from .values import known_shape, normalized_axis


def reversed_prefixes(
    ctx: NodeContext, x: SSAValue, lengths: SSAValue, time_axis: int, batch_axis: int
) -> SSAValue:
    """``x`` with, for each position ``b`` along ``batch_axis``, the first
    ``lengths[b]`` entries along ``time_axis`` reversed (the others kept)."""
    dims = known_shape(ctx, x)
    rank = len(dims)

    def along(value: object, axis: int) -> object:
        """A 1-D value as an axis of a tensor of ``x``'s rank."""
        others = [a for a in range(rank) if a != axis]
        return call("relax.expand_dims", value, axis=others) if others else value

    steps = along(call("relax.arange", 0, dims[time_axis], 1, dtype=INT64), time_axis)
    length = along(call("relax.astype", lengths, dtype=INT64), batch_axis)
    last = call("relax.subtract", length, 1)
    inside = call("relax.less", steps, length)
    order = call("relax.where", inside, call("relax.subtract", last, steps), steps)
    positions = call("relax.broadcast_to", order, Shape(tuple(dims)))
    return ctx.emit("relax.gather_elements", x, positions, axis=time_axis)


@converter("ReverseSequence", since=10)
def reverse_sequence(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    rank = len(known_shape(ctx, x))
    time_axis = normalized_axis(ctx, ctx.attr("time_axis", 0), rank)
    batch_axis = normalized_axis(ctx, ctx.attr("batch_axis", 1), rank)
    if time_axis == batch_axis:
        ctx.error("time_axis and batch_axis are the same axis")
    return reversed_prefixes(ctx, x, ctx.input(1), time_axis, batch_axis)
