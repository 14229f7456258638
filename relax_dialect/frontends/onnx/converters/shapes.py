"""Operators on shapes and layouts: ``Shape``, ``Size``, ``Reshape``, ``Flatten``,
``Unsqueeze``, ``Squeeze``, ``Expand``, ``Tile``, ``Transpose``, ``Concat``,
``Split``, ``Identity``.

Targets given as tensors (``Reshape``'s shape, ``Expand``'s, ``Tile``'s repeats)
are read from their folded values (``shape_values``), symbolic dimensions
included, so that the result types keep them.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape
from ....ops.manipulate import product
from ..context import NodeContext
from ..dtypes import data_type
from . import run_time
from .registry import converter


@converter("Identity")
def identity(ctx: NodeContext) -> SSAValue:
    return ctx.input(0)


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
        ctx.unsupported("start and end of a tensor of unknown rank are not supported")
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
    (unless ``allowzero``, opset 14, makes it a zero length), -1 is inferred.
    Copying or inferring from an input whose dimensions are unknown (its rank
    known) first binds them to fresh variables by a ``relax.match_cast``, as
    TVM binds dimensions it cannot prove."""
    x = ctx.input(0)
    dims = ctx.shape_value(1)
    if dims is None:
        return run_time.reshaped(ctx, x, _copied_zeros(ctx, x, ctx.input(1)))
    if ctx.attr("allowzero", 0) and 0 in dims:
        # a zero-length result (the input must be empty too): no element to move
        return ctx.emit("relax.zeros", Shape(tuple(dims)), dtype=ctx.tensor_type(x).data_type)
    rank = ctx.rank(x)
    if (0 in dims or -1 in dims) and ctx.shape(x) is None and rank is not None:
        x = ctx.match_cast(x, [ctx.fresh_dim("dim") for _ in range(rank)], ctx.dtype(x))
    return ctx.emit("relax.reshape", x, Shape(tuple(dims)))


def _copied_zeros(ctx: NodeContext, x: SSAValue, target: SSAValue) -> SSAValue:
    """A run-time target resolved as ONNX says: each 0 the input's length there
    (unless ``allowzero``), a -1 the length that keeps the element count."""
    target = run_time.as_int64(ctx, target)
    rank = ctx.rank(x)
    if not ctx.attr("allowzero", 0) and rank:
        count = run_time.length(ctx, target, "a reshape target")
        positions = run_time.vector(ctx, np.minimum(np.arange(count), rank - 1))
        copied = ctx.emit("relax.take", run_time.dims_of(ctx, x), positions, axis=0)
        zero = ctx.emit("relax.equal", target, ctx.const(0, "int64"))
        target = ctx.emit("relax.where", zero, copied, target)
    inferred = ctx.emit("relax.equal", target, ctx.const(-1, "int64"))
    known = ctx.emit("relax.prod", ctx.emit("relax.where", inferred, ctx.const(1, "int64"), target))
    size = run_time.as_int64(ctx, ctx.emit("relax.size", x))
    rest = ctx.emit(
        "relax.floor_divide", size, ctx.emit("relax.maximum", known, ctx.const(1, "int64"))
    )
    return ctx.emit("relax.where", inferred, rest, target)


@converter("Flatten")
def flatten(ctx: NodeContext) -> SSAValue:
    """A 2-D tensor: the dimensions before ``axis`` as rows, the rest as columns
    (their products computed at run time when the shape is not known)."""
    x = ctx.input(0)
    rank = run_time.static_rank(ctx, x)
    axis = ctx.attr("axis", 1)
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis <= rank:
        ctx.error(f"axis {ctx.attr('axis', 1)} is out of range for rank {rank}")
    dims = ctx.shape(x)
    if dims is not None:
        return ctx.emit("relax.reshape", x, Shape((product(dims[:axis]), product(dims[axis:]))))
    lengths = run_time.dims_of(ctx, x)
    parts = [
        ctx.emit(
            "relax.prod",
            ctx.emit("relax.strided_slice", lengths, [0], [start], [stop]),
            axis=[0],
            keepdims=True,
        )
        for start, stop in ((0, axis), (axis, rank))
    ]
    return run_time.reshaped(ctx, x, ctx.emit("relax.concat", parts))


@converter("Unsqueeze")
def unsqueeze(ctx: NodeContext) -> SSAValue:
    """Axes of length 1 at positions of the result (attribute before opset 13)."""
    x = ctx.input(0)
    if (run_time_axes := ctx.run_time_input(1, since=13)) is not None:
        return _run_time_unsqueeze(ctx, x, run_time_axes)
    axes = ctx.ints("axes", 1, since=13)
    if axes is None:
        ctx.error("axes are required")
    rank = ctx.rank(x)
    if rank is not None:
        out_rank = rank + len(axes)
        axes = [a + out_rank if a < 0 else a for a in axes]
    return ctx.emit("relax.expand_dims", x, axis=axes)


def _run_time_unsqueeze(ctx: NodeContext, x: SSAValue, axes: SSAValue) -> SSAValue:
    """Axes known at run time: the result's dimensions are 1 where an axis names
    the position, else the input's next dimension."""
    count = ctx.rank(x)
    if count is None:
        ctx.unsupported("run-time axes of a tensor of unknown rank are not supported")
    rank = count + run_time.length(ctx, axes, "run-time axes")
    new = run_time.membership(ctx, run_time.normalised(ctx, axes, rank), rank)
    before = ctx.emit("relax.cumsum", new, axis=0)
    source = ctx.emit("relax.subtract", run_time.vector(ctx, list(range(rank))), before)
    dims = ctx.emit("relax.take", run_time.dims_of(ctx, x), source, axis=0, mode="clip")
    added = ctx.emit("relax.greater", new, ctx.const(0, "int64"))
    return run_time.reshaped(ctx, x, ctx.emit("relax.where", added, ctx.const(1, "int64"), dims))


@converter("Squeeze")
def squeeze(ctx: NodeContext) -> SSAValue:
    """Remove the axes of length 1 given (every one when none is given)."""
    x = ctx.input(0)
    if (run_time_axes := ctx.run_time_input(1, since=13)) is not None:
        return _run_time_squeeze(ctx, x, run_time_axes)
    axes = ctx.ints("axes", 1, since=13)
    if axes is None:
        return ctx.emit("relax.squeeze", x)
    return ctx.emit("relax.squeeze", x, axis=axes)


def _run_time_squeeze(ctx: NodeContext, x: SSAValue, axes: SSAValue) -> SSAValue:
    """Axes known at run time: the dimensions of the positions no axis names, in
    order (sorted first by an argsort of ``named * rank + position``)."""
    rank = run_time.static_rank(ctx, x)
    kept = rank - run_time.length(ctx, axes, "run-time axes")
    named = run_time.membership(ctx, run_time.normalised(ctx, axes, rank), rank)
    positions = run_time.vector(ctx, list(range(rank)))
    key = ctx.emit(
        "relax.add", ctx.emit("relax.multiply", named, ctx.const(rank, "int64")), positions
    )
    order = ctx.emit("relax.argsort", key, axis=0, dtype=run_time.INT64)
    first = ctx.emit("relax.strided_slice", order, [0], [0], [kept])
    return run_time.reshaped(
        ctx, x, ctx.emit("relax.take", run_time.dims_of(ctx, x), first, axis=0)
    )


@converter("Expand", since=8)
def expand(ctx: NodeContext) -> SSAValue:
    """Broadcast ``x`` with the target shape, both ways: a target length 1 keeps
    the input's (ONNX's rule, unlike ``broadcast_to``)."""
    x = ctx.input(0)
    target = ctx.shape_value(1)
    dims = ctx.shape(x)
    if target is None or dims is None:
        return _run_time_expand(ctx, x, ctx.input(1))
    rank = max(len(target), len(dims))
    padded_target = [1] * (rank - len(target)) + list(target)
    padded_dims = [1] * (rank - len(dims)) + list(dims)
    result = [
        d if isinstance(t, int) and t == 1 else t
        for t, d in zip(padded_target, padded_dims, strict=True)
    ]
    return ctx.emit("relax.broadcast_to", x, Shape(tuple(result)))


def _run_time_expand(ctx: NodeContext, x: SSAValue, target: SSAValue) -> SSAValue:
    """A target known at run time: both shapes padded with leading ones to one
    rank, the input's length where the target's is 1."""
    rank = run_time.static_rank(ctx, x)
    count = run_time.length(ctx, target, "an expand target")
    joint = max(rank, count)
    wanted = _padded(ctx, run_time.as_int64(ctx, target), joint - count)
    own = _padded(ctx, run_time.dims_of(ctx, x), joint - rank)
    one = ctx.emit("relax.equal", wanted, ctx.const(1, "int64"))
    dims = ctx.emit("relax.where", one, own, wanted)
    return ctx.emit("relax.broadcast_to", x, ctx.emit("relax.tensor_to_shape", dims))


def _padded(ctx: NodeContext, dims: SSAValue, ones: int) -> SSAValue:
    return dims if not ones else ctx.emit("relax.concat", [run_time.vector(ctx, [1] * ones), dims])


@converter("Tile", since=6)
def tile(ctx: NodeContext) -> SSAValue:
    """``relax.tile``; repeats known only at run time: the input broadcast along
    a new axis of length 1 before each of its own, then merged with it."""
    x, repeats = ctx.input(0), ctx.constant(1)
    if repeats is not None:
        return ctx.emit("relax.tile", x, repeats=[int(r) for r in repeats.reshape(-1)])
    rank = run_time.static_rank(ctx, x)
    dims, times = run_time.dims_of(ctx, x), run_time.as_int64(ctx, ctx.input(1))
    pairs = ctx.emit("relax.stack", [times, dims], axis=1)
    target = ctx.emit("relax.tensor_to_shape", ctx.emit("relax.reshape", pairs, Shape((2 * rank,))))
    spread = ctx.emit("relax.expand_dims", x, axis=list(range(0, 2 * rank, 2)))
    repeated = ctx.emit("relax.broadcast_to", spread, target)
    return run_time.reshaped(ctx, repeated, ctx.emit("relax.multiply", times, dims))


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
    count = ctx.num_outputs
    if (lengths := ctx.run_time_input(1, since=13)) is not None:
        return _run_time_split(ctx, x, axis, count, lengths)
    lengths = ctx.ints("split", 1, since=13)
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


def _run_time_split(
    ctx: NodeContext, x: SSAValue, axis: int, count: int, lengths: SSAValue
) -> list[SSAValue]:
    """Lengths known at run time: each piece sliced from the running sum of the
    lengths before it."""
    rank = run_time.static_rank(ctx, x)
    axis = axis + rank if axis < 0 else axis
    lengths = run_time.as_int64(ctx, lengths)
    ends = ctx.emit("relax.cumsum", lengths, axis=0)
    starts = ctx.emit("relax.subtract", ends, lengths)
    where = run_time.vector(ctx, [axis])
    pieces = []
    for i in range(count):
        begin = run_time.scattered(
            ctx, [0] * rank, where, ctx.emit("relax.strided_slice", starts, [0], [i], [i + 1])
        )
        end = run_time.scattered(
            ctx,
            [run_time.INT64_MAX] * rank,
            where,
            ctx.emit("relax.strided_slice", ends, [0], [i], [i + 1]),
        )
        pieces.append(
            ctx.emit("relax.dynamic_strided_slice", x, begin, end, run_time.vector(ctx, [1] * rank))
        )
    return pieces


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
