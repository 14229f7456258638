"""Selecting parts of a tensor: ``Slice`` and ``Gather``."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from xdsl.ir import SSAValue

from ....prim_expr import PrimExpr, as_expr
from ....prim_expr_simplify import prove_equal, prove_nonnegative_over_shapes, simplify
from ..context import NodeContext
from . import run_time
from .registry import converter

Bound = int | PrimExpr


def slice_arguments(ctx: NodeContext) -> tuple[list[Bound], list[Bound], list[int], list[Bound]]:
    """``Slice``'s starts, ends, axes and steps: attributes before opset 10,
    inputs (starts and ends maybe symbolic) from then on. Raises ``NodeError``
    (unsupported) for bounds not known at import time."""
    if ctx.opset < 10:
        starts, ends = ctx.attr("starts"), ctx.attr("ends")
        axes = ctx.attr("axes", list(range(len(starts))))
        steps: list[Bound] = [1] * len(starts)
    else:
        starts, ends = ctx.shape_value(1), ctx.shape_value(2)
        if starts is None or ends is None:
            ctx.unsupported("starts and ends computed at run time are not supported here")
        axes = ctx.ints("axes", 3, since=10)
        axes = list(range(len(starts))) if axes is None else axes
        steps = ctx.shape_value(4) if ctx.has_input(4) else [1] * len(starts)
        if steps is None:
            ctx.unsupported("steps computed at run time are not supported here")
    if not len(starts) == len(ends) == len(axes) == len(steps):
        ctx.error("starts, ends, axes and steps must have one length")
    if len(set(axes)) != len(axes):
        ctx.error(f"axes {axes} repeat an axis")
    if any(isinstance(s, int) and s == 0 for s in steps):
        ctx.error("a step is 0")
    return starts, ends, axes, steps


@converter("Slice")
def slice_tensor(ctx: NodeContext) -> SSAValue:
    """``relax.strided_slice`` with the bounds as prim values (symbolic ones
    keep the result's dimensions); Python's rules for negative and out-of-range
    bounds, as ONNX's. Bounds known only at run time (from opset 10):
    ``relax.dynamic_strided_slice``."""
    x = ctx.input(0)
    if ctx.opset >= 10 and not _known_bounds(ctx):
        return _run_time_slice(ctx, x)
    starts, ends, axes, steps = slice_arguments(ctx)
    sliced = ctx.emit("relax.strided_slice", x, axes, starts, ends, steps)
    return _within_bounds(ctx, sliced, ctx.shape(x), zip(axes, starts, ends, steps, strict=True))


def _within_bounds(
    ctx: NodeContext,
    sliced: SSAValue,
    dims: list[Bound] | None,
    bounds: Iterable[tuple[int, Bound, Bound, Bound]],
) -> SSAValue:
    """``sliced`` with each symbolic extent that inference had to clamp to the
    axis (``min(32, past + seq) - min(32, past)`` rows of a 32-row buffer) given
    its in-bounds value (``seq``) by a ``relax.match_cast``, checked at run time:
    a model slicing at positions (bounds that are non-negative for any shape,
    or constants within the axis) means them to be within the tensor, and the
    check fails, naming the node, when it is used beyond the tensor's size."""
    result = ctx.shape(sliced)
    if dims is None or result is None:
        return sliced
    clamped = list(result)
    for axis, start, end, step in bounds:
        axis = axis + len(dims) if axis < 0 else axis
        if not isinstance(step, int) or step <= 0 or not 0 <= axis < len(dims):
            continue
        if isinstance(start, int) and isinstance(end, int):
            continue
        if not all(_position(bound, dims[axis]) for bound in (start, end)):
            continue
        length = simplify(as_expr((end - start + step - 1) // step))
        if not prove_equal(as_expr(result[axis]), length):
            result[axis] = length
    if result == clamped:
        return sliced
    return ctx.match_cast(sliced, result, ctx.dtype(sliced))


def _position(bound: Bound, extent: Bound) -> bool:
    """Whether a slice bound is a position within an axis of length ``extent``
    for every valid shape: a symbolic one non-negative for any shape, a constant
    one between 0 and the extent (0 when the extent is symbolic)."""
    if not isinstance(bound, int):
        return prove_nonnegative_over_shapes(bound)
    return 0 <= bound <= (extent if isinstance(extent, int) else 0)


def _known_bounds(ctx: NodeContext) -> bool:
    """Whether starts and ends are known and axes and steps constant (or absent)."""
    known = ctx.shape_value(1) is not None and ctx.shape_value(2) is not None
    return known and all(not ctx.has_input(i) or ctx.constant(i) is not None for i in (3, 4))


def _run_time_slice(ctx: NodeContext, x: SSAValue) -> SSAValue:
    """The bounds of every axis as vectors written where ``axes`` say (the axes
    not sliced taken whole), for ``relax.dynamic_strided_slice``."""
    rank = run_time.static_rank(ctx, x)
    starts, ends = ctx.input(1), ctx.input(2)
    count = run_time.length(ctx, starts, "a slice")
    if ctx.has_input(3):
        axes = run_time.normalised(ctx, ctx.input(3), rank)
    else:
        axes = run_time.vector(ctx, list(range(count)))
    steps = ctx.input(4) if ctx.has_input(4) else run_time.vector(ctx, [1] * count)
    begin = run_time.scattered(ctx, [0] * rank, axes, starts)
    end = run_time.scattered(ctx, [run_time.INT64_MAX] * rank, axes, ends)
    stride = run_time.scattered(ctx, [1] * rank, axes, steps)
    return ctx.emit("relax.dynamic_strided_slice", x, begin, end, stride)


@converter("Gather")
def gather(ctx: NodeContext) -> SSAValue:
    """``relax.take`` along ``axis``; negative indices count from the end (constant
    ones are resolved here, run-time ones wrap)."""
    x = ctx.input(0)
    axis = ctx.attr("axis", 0)
    rank = ctx.rank(x)
    if rank is not None:
        if not -rank <= axis < rank:
            ctx.error(f"axis {axis} is out of range for rank {rank}")
        axis = axis + rank if axis < 0 else axis
    indices = ctx.constant(1)
    dims = ctx.shape(x)
    if indices is not None and dims is not None and isinstance(extent := dims[axis], int):
        if np.any(indices < -extent) or np.any(indices >= extent):
            ctx.error(f"an index is out of range for axis {axis} of length {extent}")
        resolved = np.where(indices < 0, indices + extent, indices).astype(indices.dtype)
        return ctx.emit("relax.take", x, ctx.const(resolved), axis=axis)
    return ctx.emit("relax.take", x, ctx.input(1), axis=axis, mode="wrap")
