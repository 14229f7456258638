"""Pooling: MaxPool, AveragePool and LpPool over sliding windows
(``relax.nn.<max|avg>_pool<k>d``), and their Global forms over every
spatial axis."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Call, call
from ..context import NodeContext
from .convolution import spatial_count
from .registry import converter
from .values import emit, known_shape, output_used, scalar
from .windows import window


def _pool(ctx: NodeContext, kind: str, x: SSAValue | Call, **attrs: object) -> Call:
    """``relax.nn.<kind>_pool<k>d`` over the node's window."""
    dims = known_shape(ctx, ctx.input(0))
    spatial = spatial_count(ctx, dims)
    kernel = ctx.attr("kernel_shape")
    if len(kernel) != spatial:
        ctx.error(f"kernel_shape has {len(kernel)} values for {spatial} spatial axes")
    slide = window(ctx, dims[2:], list(kernel))
    return call(
        f"relax.nn.{kind}_pool{spatial}d",
        x,
        pool_size=slide.kernel,
        strides=slide.strides,
        padding=slide.padding,
        dilation=slide.dilations,
        ceil_mode=bool(ctx.attr("ceil_mode", 0)),
        **attrs,
    )


@converter("MaxPool", since=1)
def max_pool(ctx: NodeContext) -> SSAValue:
    if output_used(ctx, 1):
        ctx.unsupported("the Indices output is not supported")
    if ctx.attr("storage_order", 0):
        ctx.unsupported("storage_order 1 (column-major indices) is not supported")
    return emit(ctx, _pool(ctx, "max", ctx.input(0)))


@converter("AveragePool", since=1)
def average_pool(ctx: NodeContext) -> SSAValue:
    include = bool(ctx.attr("count_include_pad", 0))
    return emit(ctx, _pool(ctx, "avg", ctx.input(0), count_include_pad=include))


def _powers(ctx: NodeContext, x: SSAValue, p: int) -> Call:
    """``|x| ** p``."""
    return call("relax.power", call("relax.abs", x), scalar(ctx, p, x))


def _root(ctx: NodeContext, total: Call, p: int, like: SSAValue) -> SSAValue:
    """``total ** (1 / p)``."""
    return ctx.emit("relax.power", total, scalar(ctx, 1.0 / p, like))


@converter("LpPool", since=1)
def lp_pool(ctx: NodeContext) -> SSAValue:
    """``(sum of |x| ** p over the window) ** (1 / p)``: the window's mean of
    ``|x| ** p`` (padding counted, as zeros) times its size."""
    x, p = ctx.input(0), ctx.attr("p", 2)
    mean = _pool(ctx, "avg", _powers(ctx, x, p), count_include_pad=True)
    size = 1
    for k in ctx.attr("kernel_shape"):
        size *= k
    return _root(ctx, call("relax.multiply", mean, scalar(ctx, size, x)), p, x)


def _spatial_axes(ctx: NodeContext, x: SSAValue) -> list[int]:
    rank = len(known_shape(ctx, x))
    if rank < 3:
        ctx.error(f"the data has rank {rank}, expected N, C and spatial axes")
    return list(range(2, rank))


@converter("GlobalMaxPool", since=1)
def global_max_pool(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    return ctx.emit("relax.max", x, axis=_spatial_axes(ctx, x), keepdims=True)


@converter("GlobalAveragePool", since=1)
def global_average_pool(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    return ctx.emit("relax.mean", x, axis=_spatial_axes(ctx, x), keepdims=True)


@converter("GlobalLpPool", since=2)
def global_lp_pool(ctx: NodeContext) -> SSAValue:
    x, p = ctx.input(0), ctx.attr("p", 2)
    total = call("relax.sum", _powers(ctx, x, p), axis=_spatial_axes(ctx, x), keepdims=True)
    return _root(ctx, total, p, x)
