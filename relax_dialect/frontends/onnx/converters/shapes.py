"""Operators on shapes and layouts: ``Shape``, ``Size``, ``Reshape``, ``Flatten``,
``Unsqueeze``, ``Squeeze``, ``Expand``, ``Tile``, ``Transpose``, ``Concat``,
``Split``, ``Identity``, ``Cast``, ``CastLike``.

Targets given as tensors (``Reshape``'s shape, ``Expand``'s, ``Tile``'s repeats)
are read from their folded values (``shape_values``), symbolic dimensions
included, so that the result types keep them.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from ....builder import Shape
from ....prim_expr import PrimExpr
from ..context import NodeContext
from ..dtypes import data_type
from .constants import shape_argument
from .registry import converter


@converter("Identity")
def identity(ctx: NodeContext) -> SSAValue:
    return ctx.input(0)


@converter("Cast")
def cast(ctx: NodeContext) -> SSAValue:
    target = data_type(ctx.attr("to"))
    return ctx.emit("relax.astype", ctx.input(0), dtype=target)


@converter("CastLike", since=15)
def cast_like(ctx: NodeContext) -> SSAValue:
    target = ctx.tensor_type(ctx.input(1)).data_type
    return ctx.emit("relax.astype", ctx.input(0), dtype=target)


@converter("Shape")
def shape(ctx: NodeContext) -> SSAValue:
    """``relax.shape_to_tensor(relax.shape_of(x))``, sliced by ``start``/``end``
    (opset 15); its entries are known symbolically (see ``shape_values``)."""
    x = ctx.input(0)
    whole = ctx.emit("relax.shape_to_tensor", ctx.emit("relax.shape_of", x))
    start, end = ctx.attr("start", 0), ctx.attr("end", None)
    if start == 0 and end is None:
        return whole
    rank = ctx.rank(x)
    if rank is None:
        ctx.unsupported("start and end need the rank of the input")
    stop = rank if end is None else end
    return ctx.emit("relax.strided_slice", whole, [0], [start], [stop], assume_inbound=False)


@converter("Size")
def size(ctx: NodeContext) -> SSAValue:
    """The element count as an int64 scalar."""
    count = ctx.emit("relax.size", ctx.input(0))
    return ctx.emit("relax.astype", count, dtype=data_type(7))


@converter("Reshape", since=5)
def reshape(ctx: NodeContext) -> SSAValue:
    """``relax.reshape``: a target entry 0 copies the input's length there
    (unless ``allowzero``, opset 14, makes it a zero length), -1 is inferred."""
    x = ctx.input(0)
    dims = ctx.shape_value(1)
    if dims is None:
        return ctx.emit("relax.reshape", x, shape_argument(ctx, 1))
    if ctx.attr("allowzero", 0) and 0 in dims:
        # a zero-length result (the input must be empty too): no element to move
        return ctx.emit("relax.zeros", Shape(tuple(dims)), dtype=ctx.tensor_type(x).data_type)
    return ctx.emit("relax.reshape", x, Shape(tuple(dims)))


@converter("Flatten")
def flatten(ctx: NodeContext) -> SSAValue:
    """A 2-D tensor: the dimensions before ``axis`` as rows, the rest as columns."""
    x = ctx.input(0)
    dims = ctx.shape(x)
    rank = ctx.rank(x)
    if rank is None or dims is None:
        ctx.unsupported("the input's shape must be known")
    axis = ctx.attr("axis", 1)
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis <= rank:
        ctx.error(f"axis {ctx.attr('axis', 1)} is out of range for rank {rank}")
    return ctx.emit("relax.reshape", x, Shape((_product(dims[:axis]), _product(dims[axis:]))))


def _product(dims: Sequence[int | PrimExpr]) -> int | PrimExpr:
    result: int | PrimExpr = 1
    for dim in dims:
        result = result * dim
    return result


@converter("Unsqueeze")
def unsqueeze(ctx: NodeContext) -> SSAValue:
    """Axes of length 1 at positions of the result (attribute before opset 13)."""
    x = ctx.input(0)
    axes = ctx.ints("axes", 1, since=13)
    if axes is None:
        ctx.error("axes are required")
    rank = ctx.rank(x)
    if rank is not None:
        out_rank = rank + len(axes)
        axes = [a + out_rank if a < 0 else a for a in axes]
    return ctx.emit("relax.expand_dims", x, axis=axes)


@converter("Squeeze")
def squeeze(ctx: NodeContext) -> SSAValue:
    """Remove the axes of length 1 given (every one when none is given)."""
    x = ctx.input(0)
    axes = ctx.ints("axes", 1, since=13)
    if axes is None:
        return ctx.emit("relax.squeeze", x)
    return ctx.emit("relax.squeeze", x, axis=axes)


@converter("Expand", since=8)
def expand(ctx: NodeContext) -> SSAValue:
    """Broadcast ``x`` with the target shape, both ways: a target length 1 keeps
    the input's (ONNX's rule, unlike ``broadcast_to``)."""
    x = ctx.input(0)
    target = ctx.shape_value(1)
    dims = ctx.shape(x)
    if target is None or dims is None:
        ctx.unsupported("the target shape and the input's shape must be known")
    rank = max(len(target), len(dims))
    padded_target = [1] * (rank - len(target)) + list(target)
    padded_dims = [1] * (rank - len(dims)) + list(dims)
    result = [
        d if isinstance(t, int) and t == 1 else t
        for t, d in zip(padded_target, padded_dims, strict=True)
    ]
    return ctx.emit("relax.broadcast_to", x, Shape(tuple(result)))


@converter("Tile", since=6)
def tile(ctx: NodeContext) -> SSAValue:
    repeats = ctx.constant(1)
    if repeats is None:
        ctx.unsupported("repeats must be known at import time")
    return ctx.emit("relax.tile", ctx.input(0), repeats=[int(r) for r in repeats.reshape(-1)])


@converter("Transpose")
def transpose(ctx: NodeContext) -> SSAValue:
    """The axes in the order ``perm`` (default: reversed)."""
    perm = ctx.attr("perm", None)
    if perm is None:
        return ctx.emit("relax.permute_dims", ctx.input(0))
    return ctx.emit("relax.permute_dims", ctx.input(0), axes=perm)


@converter("Concat", since=4)
def concat(ctx: NodeContext) -> SSAValue:
    tensors = [ctx.input(i) for i in range(ctx.num_inputs)]
    return ctx.emit("relax.concat", tensors, axis=ctx.attr("axis"))


@converter("Split")
def split(ctx: NodeContext) -> list[SSAValue]:
    """Pieces along ``axis``: of the lengths ``split`` (attribute before opset 13,
    input from then on), else equal (the last one smaller when uneven, opset 18's
    ``num_outputs``)."""
    x = ctx.input(0)
    axis = ctx.attr("axis", 0)
    lengths = ctx.ints("split", 1, since=13)
    count = ctx.num_outputs
    if lengths is not None:
        if len(lengths) != count:
            ctx.error(f"split has {len(lengths)} lengths for {count} outputs")
        indices: list[int] = []
        for length in lengths[:-1]:
            indices.append((indices[-1] if indices else 0) + length)
        pieces = ctx.emit("relax.split", x, indices_or_sections=indices, axis=axis)
    else:
        pieces = ctx.emit(
            "relax.split", x, indices_or_sections=_equal_split(ctx, x, axis, count), axis=axis
        )
    return [ctx.builder.tuple_get_item(pieces, i) for i in range(count)]


def _equal_split(ctx: NodeContext, x: SSAValue, axis: int, count: int) -> int | list[int]:
    """``count`` equal pieces; with ``num_outputs`` (opset 18) and a length not
    divisible, pieces of ``ceil(length / count)`` and a smaller (maybe empty)
    last one."""
    dims = ctx.shape(x)
    rank = ctx.rank(x)
    if dims is None or rank is None:
        return count
    length = dims[axis + rank if axis < 0 else axis]
    if not isinstance(length, int) or length % count == 0:
        return count
    if ctx.opset < 18:
        ctx.error(f"a length of {length} cannot be split in {count} equal pieces")
    step = -(-length // count)
    return [min(step * i, length) for i in range(1, count)]
