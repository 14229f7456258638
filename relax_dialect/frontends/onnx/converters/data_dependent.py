"""Operators whose result lengths depend on the data: ``NonZero``, ``Unique``,
``Compress``, and ``TopK`` with a ``k`` known only at run time.

Each result is bound by a ``relax.match_cast`` to a fresh symbolic variable
(``num_nonzero``, ``num_unique``, ...), so that what follows computes on a named
length rather than an unknown shape; the lowering computes these lengths in two
phases (count, then fill).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Shape
from ....dtype import INT64
from ....prim_expr import PrimExpr, Var
from ....types import ShapeType
from ..context import NodeContext
from .registry import converter
from .values import normalized_axis, output_used, product


@converter("NonZero", since=9)
def nonzero(ctx: NodeContext) -> SSAValue:
    """``relax.nonzero``: ``[rank, num_nonzero]`` (one row for a scalar)."""
    x = ctx.input(0)
    found = ctx.emit("relax.nonzero", x)
    rank = ctx.rank(x)
    if rank is None:
        return found
    return ctx.match_cast(found, [max(rank, 1), ctx.fresh_dim("num_nonzero")], "int64")


@converter("Unique", since=11)
def unique(ctx: NodeContext) -> list[SSAValue | None]:
    """``relax.unique`` with the requested outputs: the values (``[num_unique]``, or
    the input's shape with ``num_unique`` slices along ``axis``), the first index and
    the count of each (``[num_unique]``), and each element's (slice's) value index."""
    x = ctx.input(0)
    axis = ctx.attr("axis", None)
    rank, dims = ctx.rank(x), ctx.shape(x)
    if axis is not None and rank is not None:
        axis = normalized_axis(ctx, axis, rank)
    wanted = [output_used(ctx, i) for i in (1, 2, 3)]
    args: list[object] = [x, bool(ctx.attr("sorted", 1)), *wanted]
    result = ctx.emit("relax.unique", *args, *([] if axis is None else [axis]))
    fields = [result]
    if any(wanted):
        fields = [ctx.builder.tuple_get_item(result, i) for i in range(1 + sum(wanted))]
    count = Var(ctx.fresh_dim("num_unique"))
    dtype = ctx.dtype(x)
    if axis is None:
        values_shape: list[int | PrimExpr] | None = [count]
        slices = None if dims is None else product(dims)
    else:
        values_shape = (
            None if dims is None else [count if a == axis else d for a, d in enumerate(dims)]
        )
        slices = None if dims is None else dims[axis]
    values = fields[0] if values_shape is None else ctx.match_cast(fields[0], values_shape, dtype)
    extras = iter(fields[1:])
    lengths = [count, slices, count]
    outputs: list[SSAValue | None] = [values]
    for want, length in zip(wanted, lengths, strict=True):
        if not want:
            outputs.append(None)
            continue
        extra = next(extras)
        outputs.append(extra if length is None else ctx.match_cast(extra, [length], "int64"))
    return outputs


@converter("Compress", since=9)
def compress(ctx: NodeContext) -> SSAValue:
    """The slices along ``axis`` (the elements, flattened, without one) whose
    ``condition`` entry is true: ``relax.take`` at the positions of the true
    entries (``relax.nonzero``)."""
    x, condition = ctx.input(0), ctx.input(1)
    axis = ctx.attr("axis", None)
    if axis is None:
        x = ctx.emit("relax.flatten", x)
        axis = 0
    rank = ctx.rank(x)
    if rank is not None:
        axis = normalized_axis(ctx, axis, rank)
    if ctx.rank(condition) not in (1, None):
        ctx.error("condition must be 1-D")
    found = ctx.emit("relax.nonzero", condition)
    positions = ctx.match_cast(found, [1, ctx.fresh_dim("num_selected")], "int64")
    return ctx.emit("relax.take", x, ctx.emit("relax.squeeze", positions, axis=[0]), axis=axis)


def topk_of_tensor_k(ctx: NodeContext, x: SSAValue, k: SSAValue) -> list[SSAValue]:
    """``TopK`` whose ``k`` (a 1-element ``i64`` tensor) is known only at run time:
    the whole axis sorted (``relax.topk`` with ``k = 0``), then both results sliced
    to a fresh symbolic length bound to ``k``'s value (``relax.tensor_to_shape`` and
    ``relax.match_cast``). ``TopK``'s converter calls it when ``k`` is no constant."""
    axis = ctx.attr("axis", -1)
    largest = bool(ctx.attr("largest", 1))
    both = ctx.emit("relax.topk", x, k=0, axis=axis, largest=largest, ret_type="both", dtype=INT64)
    shape = ctx.emit("relax.tensor_to_shape", ctx.emit("relax.reshape", k, Shape((1,))))
    length = Var(ctx.fresh_dim("top_k"))
    ctx.builder.match_cast(shape, ShapeType([length]))
    return [
        ctx.emit(
            "relax.strided_slice",
            ctx.builder.tuple_get_item(both, i),
            [axis],
            [0],
            [length],
            assume_inbound=True,  # ONNX asks for 0 <= k <= the axis' length
        )
        for i in (0, 1)
    ]
