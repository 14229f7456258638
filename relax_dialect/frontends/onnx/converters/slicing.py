"""Selecting parts of a tensor: ``Slice`` and ``Gather``."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....prim_expr import PrimExpr
from ..context import NodeContext
from ..dtypes import data_type
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
            ctx.unsupported("starts and ends must be known at import time")
        axes = ctx.ints("axes", 3, since=10)
        axes = list(range(len(starts))) if axes is None else axes
        steps = ctx.shape_value(4) if ctx.has_input(4) else [1] * len(starts)
        if steps is None:
            ctx.unsupported("steps must be known at import time")
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
    bounds, as ONNX's."""
    x = ctx.input(0)
    if ctx.opset >= 10 and (ctx.shape_value(1) is None or ctx.shape_value(2) is None):
        return _dynamic_slice(ctx, x)
    starts, ends, axes, steps = slice_arguments(ctx)
    return ctx.emit("relax.strided_slice", x, axes, starts, ends, steps)


def _dynamic_slice(ctx: NodeContext, x: SSAValue) -> SSAValue:
    """Bounds computed at run time: ``relax.dynamic_strided_slice`` over every
    axis, those not sliced taken whole."""
    rank = ctx.rank(x)
    if rank is None:
        ctx.unsupported("bounds computed at run time need the input's rank")
    starts, ends = ctx.input(1), ctx.input(2)
    axes = ctx.ints("axes", 3, since=10)
    if axes is None:
        length = (ctx.shape(starts) or [None])[0]
        if not isinstance(length, int):
            ctx.unsupported("bounds computed at run time need constant axes or a static count")
        axes = list(range(length))
    steps = ctx.constant(4) if ctx.has_input(4) else np.ones(len(axes), np.int64)
    if steps is None:
        ctx.unsupported("bounds computed at run time need constant steps")
    axes = [a + rank if a < 0 else a for a in axes]
    positions = ctx.const(np.array(axes, np.int64))

    def every_axis(bounds: SSAValue, whole: int) -> SSAValue:
        full = ctx.const(np.full(rank, whole, np.int64))
        bounds = ctx.emit("relax.astype", bounds, dtype=data_type(7))
        return ctx.emit("relax.scatter_elements", full, positions, bounds)

    stride = np.ones(rank, np.int64)
    stride[axes] = steps.reshape(-1)
    begin, end = every_axis(starts, 0), every_axis(ends, np.iinfo(np.int64).max)
    return ctx.emit("relax.dynamic_strided_slice", x, begin, end, ctx.const(stride))


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
