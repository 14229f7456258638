"""Pooling: MaxPool, AveragePool and LpPool over sliding windows
(``relax.nn.<max|avg>_pool<k>d``), their Global forms over every spatial
axis, and MaxUnpool (a ``relax.scatter_elements`` of the pooled values)."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....prim_expr import as_expr
from ....prim_expr_simplify import simplify
from ..context import NodeContext
from .convolution import spatial_count
from .pool_indices import max_pool_indices
from .registry import converter
from .values import constant_ints, emit, known_shape, output_used, product, scalar, static_dim
from .windows import Window, window


def _window(ctx: NodeContext) -> Window:
    """The node's pooling window over the input's spatial axes."""
    dims = known_shape(ctx, ctx.input(0))
    spatial = spatial_count(ctx, dims)
    kernel = ctx.attr("kernel_shape")
    if len(kernel) != spatial:
        ctx.error(f"kernel_shape has {len(kernel)} values for {spatial} spatial axes")
    return window(ctx, dims[2:], list(kernel))


def _pool(ctx: NodeContext, kind: str, x: SSAValue | Call, **attrs: object) -> Call:
    """``relax.nn.<kind>_pool<k>d`` over the node's window."""
    slide = _window(ctx)
    return call(
        f"relax.nn.{kind}_pool{len(slide.kernel)}d",
        x,
        pool_size=slide.kernel,
        strides=slide.strides,
        padding=slide.padding,
        dilation=slide.dilations,
        ceil_mode=bool(ctx.attr("ceil_mode", 0)),
        **attrs,
    )


@converter("MaxPool", since=1)
def max_pool(ctx: NodeContext) -> list[SSAValue]:
    """The maxima, and their positions when the Indices output is used (see
    ``pool_indices``)."""
    pooled = emit(ctx, _pool(ctx, "max", ctx.input(0)))
    if not output_used(ctx, 1):
        return [pooled]
    return [pooled, max_pool_indices(ctx, ctx.input(0), pooled, _window(ctx))]


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


@converter("MaxUnpool", since=9)
def max_unpool(ctx: NodeContext) -> SSAValue:
    """Zeros of the pooling's input shape (each spatial size ``(size - 1) *
    stride - pads + kernel``) with each value of ``X`` at its flat index in
    ``I``, then zeros appended at the end of each axis up to ``output_shape``,
    as ONNX's reference does."""
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    spatial = spatial_count(ctx, dims)
    kernel = list(ctx.attr("kernel_shape"))
    if len(kernel) != spatial:
        ctx.error(f"kernel_shape has {len(kernel)} values for {spatial} spatial axes")
    slide = window(ctx, dims[2:], kernel)
    unpooled = [
        simplify((size - 1) * stride - before - after + k)
        for size, stride, before, after, k in zip(
            dims[2:], slide.strides, slide.pad_before, slide.pad_after, kernel, strict=True
        )
    ]
    shape = (*dims[:2], *unpooled)
    flat = Shape((product(shape),))
    zeros = call("relax.zeros", flat, dtype=ctx.tensor_type(x).data_type)
    indices = call("relax.reshape", ctx.input(1), Shape((product(dims),)))
    values = call("relax.reshape", x, Shape((product(dims),)))
    scattered = call("relax.scatter_elements", zeros, indices, values, axis=0)
    result = call("relax.reshape", scattered, Shape(shape))
    if ctx.has_input(2):
        wanted = ctx.shape_value(2) or constant_ints(ctx, 2, "the output shape")
        if len(wanted) != len(shape):
            ctx.error(f"output_shape has {len(wanted)} entries for data of rank {len(shape)}")
        width = []
        for axis, (target, size) in enumerate(zip(wanted, shape, strict=True)):
            extra = static_dim(ctx, simplify(as_expr(target) - size), f"padding axis {axis}")
            if extra < 0:
                ctx.error(f"output_shape {wanted} is smaller than the unpooled shape")
            width += [0, extra]
        if any(width):
            result = call("relax.nn.pad", result, pad_width=width)
    return emit(ctx, result)
