"""Normalizations: BatchNormalization, InstanceNormalization,
LayerNormalization, GroupNormalization, RMSNormalization, LRN,
MeanVarianceNormalization and LpNormalization.

Layer and RMS normalization map to ``relax.nn.layer_norm`` and
``relax.nn.rms_norm`` when their parameters have the normalized shape and
only ``Y`` is used; otherwise (broadcast parameters, the Mean and InvStdDev
outputs) they are computed from reductions, in ``f32`` (``stash_type`` 1)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import FLOAT32
from ....prim_expr import as_expr
from ....prim_expr_simplify import prove_equal
from ..context import NodeContext
from .registry import converter
from .values import (
    data_type,
    emit,
    known_shape,
    normalized_axis,
    output_used,
    product,
    scalar,
    static_dim,
)


def _in_data_type(ctx: NodeContext, value: SSAValue, like: SSAValue) -> SSAValue | Call:
    """``value`` converted to ``like``'s data type when they differ."""
    if ctx.dtype(value) == ctx.dtype(like):
        return value
    return call("relax.astype", value, dtype=data_type(ctx, like))


@converter("BatchNormalization", since=7)
def batch_normalization(ctx: NodeContext) -> Sequence[SSAValue]:
    """Normalization along axis 1 by the moving statistics; in ``training_mode``
    (opset 14 on) by the batch's mean and biased variance, the moving statistics
    updated as ``moving * momentum + batch * (1 - momentum)`` (Relax's
    ``momentum`` weighs the batch: it is ``1 - momentum``)."""
    training = bool(ctx.attr("training_mode", 0))
    if not ctx.attr("spatial", 1):
        ctx.unsupported("spatial 0 (statistics per activation) is not supported")
    if not training and any(output_used(ctx, index) for index in range(1, ctx.num_outputs)):
        ctx.unsupported("the running statistics outputs (training mode) are not supported")
    x = ctx.input(0)
    params = [_in_data_type(ctx, ctx.input(i), x) for i in range(1, 5)]
    normalized = ctx.emit(
        "relax.nn.batch_norm",
        x,
        *params,
        axis=1,
        epsilon=ctx.attr("epsilon", 1e-5),
        momentum=1.0 - ctx.attr("momentum", 0.9),
        training=training,
    )
    count = min(ctx.num_outputs, 3) if training else 1
    return [ctx.builder.tuple_get_item(normalized, index) for index in range(count)]


def _spatial_axes(ctx: NodeContext, x: SSAValue) -> list[int]:
    return list(range(2, len(known_shape(ctx, x))))


@converter("InstanceNormalization", since=1)
def instance_normalization(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    return ctx.emit(
        "relax.nn.instance_norm",
        x,
        ctx.input(1),
        ctx.input(2),
        channel_axis=1,
        axes=_spatial_axes(ctx, x),
        epsilon=ctx.attr("epsilon", 1e-5),
    )


@converter("GroupNormalization", since=18)
def group_normalization(ctx: NodeContext) -> SSAValue:
    """Opset 18 scales and shifts per group, opset 21 per channel."""
    x, scale, bias = ctx.input(0), ctx.input(1), ctx.input(2)
    groups = ctx.attr("num_groups")
    if ctx.opset < 21:
        channels = static_dim(ctx, known_shape(ctx, x)[1], "expanding per-group parameters")
        per_group = channels // groups
        scale = call("relax.repeat", scale, repeats=per_group, axis=0)
        bias = call("relax.repeat", bias, repeats=per_group, axis=0)
    return ctx.emit(
        "relax.nn.group_norm",
        x,
        scale,
        bias,
        num_groups=groups,
        channel_axis=1,
        axes=_spatial_axes(ctx, x),
        epsilon=ctx.attr("epsilon", 1e-5),
    )


def _normalized_axes(ctx: NodeContext, x: SSAValue) -> list[int]:
    """The axes from ``axis`` (default -1) on."""
    rank = len(known_shape(ctx, x))
    return list(range(normalized_axis(ctx, ctx.attr("axis", -1), rank), rank))


def _has_normalized_shape(
    ctx: NodeContext, param: SSAValue | None, x: SSAValue, axes: list[int]
) -> bool:
    if param is None:
        return True
    dims, shape = known_shape(ctx, x), ctx.shape(param)
    return (
        shape is not None
        and len(shape) == len(axes)
        and all(
            prove_equal(dims[axis], as_expr(dim)) for axis, dim in zip(axes, shape, strict=True)
        )
    )


def _standardized(
    ctx: NodeContext, x: SSAValue, axes: list[int], centered: bool
) -> tuple[Call | SSAValue, Call | None, Call]:
    """``x`` (centered when asked) times the inverse root of its mean square
    over ``axes`` plus epsilon, in f32 when ``stash_type`` is 1; with the mean
    and that inverse (keeping the axes)."""
    if ctx.attr("stash_type", 1) == 1 and data_type(ctx, x) != FLOAT32:
        x = call("relax.astype", x, dtype=FLOAT32)
    mean = call("relax.mean", x, axis=axes, keepdims=True) if centered else None
    deviation = call("relax.subtract", x, mean) if mean is not None else x
    epsilon = scalar(ctx, ctx.attr("epsilon", 1e-5), ctx.input(0))
    if ctx.attr("stash_type", 1) == 1:
        epsilon = epsilon.astype("float32")
    square = call(
        "relax.mean", call("relax.multiply", deviation, deviation), axis=axes, keepdims=True
    )
    inverse = call("relax.rsqrt", call("relax.add", square, epsilon))
    return call("relax.multiply", deviation, inverse), mean, inverse


def _affine(
    ctx: NodeContext, normalized: Call | SSAValue, scale: SSAValue, bias: SSAValue | None
) -> SSAValue:
    x = ctx.input(0)
    if not isinstance(normalized, SSAValue) or ctx.dtype(normalized) != ctx.dtype(x):
        normalized = call("relax.astype", normalized, dtype=data_type(ctx, x))
    result = call("relax.multiply", normalized, scale)
    return emit(ctx, result if bias is None else call("relax.add", result, bias))


@converter("LayerNormalization", since=17)
def layer_normalization(ctx: NodeContext) -> Sequence[SSAValue | None]:
    x, scale, bias = ctx.input(0), ctx.input(1), ctx.optional_input(2)
    axes = _normalized_axes(ctx, x)
    statistics_used = output_used(ctx, 1) or output_used(ctx, 2)
    if (
        not statistics_used
        and all(_has_normalized_shape(ctx, p, x, axes) for p in (scale, bias))
        and data_type(ctx, x) == FLOAT32
    ):
        return [
            ctx.emit(
                "relax.nn.layer_norm",
                x,
                scale,
                scale if bias is None else bias,
                axes=axes,
                epsilon=ctx.attr("epsilon", 1e-5),
                center=bias is not None,
            )
        ]
    normalized, mean, inverse = _standardized(ctx, x, axes, centered=True)
    outputs: list[SSAValue | None] = [_affine(ctx, normalized, scale, bias)]
    for index, statistic in ((1, mean), (2, inverse)):
        outputs.append(
            ctx.emit("relax.astype", statistic, dtype=data_type(ctx, x))
            if output_used(ctx, index)
            else None
        )
    return outputs[: ctx.num_outputs]


@converter("RMSNormalization", since=23)
def rms_normalization(ctx: NodeContext) -> SSAValue:
    x, scale = ctx.input(0), ctx.input(1)
    axes = _normalized_axes(ctx, x)
    if _has_normalized_shape(ctx, scale, x, axes) and data_type(ctx, x) == FLOAT32:
        return ctx.emit("relax.nn.rms_norm", x, scale, axes=axes, epsilon=ctx.attr("epsilon", 1e-5))
    normalized, _, _ = _standardized(ctx, x, axes, centered=False)
    return _affine(ctx, normalized, scale, None)


@converter("LRN", since=1)
def local_response_normalization(ctx: NodeContext) -> SSAValue:
    """``x / (bias + alpha / size * square_sum) ** beta``, the sum of squares
    over ``size`` neighbouring channels: an average pooling along the
    channels of the squares seen as an image of one row per channel."""
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    if len(dims) < 3:
        ctx.error(f"the data has rank {len(dims)}, expected N, C and spatial axes")
    size = ctx.attr("size")
    rows = Shape((dims[0], 1, dims[1], product(dims[2:])))
    squares = call("relax.reshape", call("relax.multiply", x, x), rows)
    mean = call(
        "relax.nn.avg_pool2d",
        squares,
        pool_size=[size, 1],
        padding=[(size - 1) // 2, 0, size // 2, 0],
        count_include_pad=True,
    )
    mean = call("relax.reshape", mean, Shape(tuple(dims)))
    alpha, beta, bias = ctx.attr("alpha", 1e-4), ctx.attr("beta", 0.75), ctx.attr("bias", 1.0)
    base = call(
        "relax.add", call("relax.multiply", mean, scalar(ctx, alpha, x)), scalar(ctx, bias, x)
    )
    return ctx.emit("relax.divide", x, call("relax.power", base, scalar(ctx, beta, x)))


@converter("MeanVarianceNormalization", since=9)
def mean_variance_normalization(ctx: NodeContext) -> SSAValue:
    """``(x - mean) / (sqrt(mean(x ** 2) - mean ** 2) + 1e-9)`` over ``axes``."""
    x = ctx.input(0)
    rank = len(known_shape(ctx, x))
    axes = sorted({normalized_axis(ctx, a, rank) for a in ctx.attr("axes", [0, 2, 3])})
    mean = call("relax.mean", x, axis=axes, keepdims=True)
    mean_square = call("relax.mean", call("relax.multiply", x, x), axis=axes, keepdims=True)
    deviation = call(
        "relax.sqrt", call("relax.subtract", mean_square, call("relax.multiply", mean, mean))
    )
    return ctx.emit(
        "relax.divide",
        call("relax.subtract", x, mean),
        call("relax.add", deviation, scalar(ctx, 1e-9, x)),
    )


@converter("LpNormalization", since=1)
def lp_normalization(ctx: NodeContext) -> SSAValue:
    """``x`` divided by its L1 or L2 norm along ``axis``; 0 where the norm is."""
    x, p = ctx.input(0), ctx.attr("p", 2)
    axis = normalized_axis(ctx, ctx.attr("axis", -1), len(known_shape(ctx, x)))
    if p == 1:
        norm = call("relax.sum", call("relax.abs", x), axis=[axis], keepdims=True)
    elif p == 2:
        norm = call(
            "relax.sqrt",
            call("relax.sum", call("relax.multiply", x, x), axis=[axis], keepdims=True),
        )
    else:
        ctx.error(f"p must be 1 or 2, got {p}")
    norm = emit(ctx, norm)
    zero = scalar(ctx, 0, x)
    return ctx.emit(
        "relax.where", call("relax.equal", norm, zero), zero, call("relax.divide", x, norm)
    )
