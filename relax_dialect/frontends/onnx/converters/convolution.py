"""Conv and ConvTranspose over 1 to 3 spatial axes (``relax.nn.conv<k>d``
and ``relax.nn.conv<k>d_transpose``), the optional bias added per channel, and
CausalConvWithState (a depthwise ``relax.nn.conv1d`` after a carried state)."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import FLOAT32
from ....prim_expr import IntImm, PrimExpr, as_expr
from ....prim_expr_simplify import simplify
from ..context import NodeContext
from .registry import converter
from .values import data_type, emit, known_shape, static_dim
from .windows import (
    Window,
    auto_pad,
    per_axis,
    split_total,
    window,
)


def spatial_count(ctx: NodeContext, dims: list[PrimExpr]) -> int:
    """The number of spatial axes of NC... data: 1 to 3."""
    if not 3 <= len(dims) <= 5:
        ctx.unsupported(f"data of rank {len(dims)} is not supported (1 to 3 spatial axes are)")
    return len(dims) - 2


def kernel_shape(ctx: NodeContext, weight: SSAValue, spatial: int) -> list[int]:
    """The window of the weight's spatial axes (or the ``kernel_shape`` attribute)."""
    dims = ctx.shape(weight)
    known = [simplify(as_expr(dim)) for dim in dims[2:]] if dims is not None else []
    if len(known) == spatial and all(isinstance(dim, IntImm) for dim in known):
        found = [dim.value for dim in known]
        given = ctx.attr("kernel_shape", found)
        if list(given) != found:
            ctx.error(f"kernel_shape {list(given)} differs from the weight's {found}")
        return found
    given = ctx.attr("kernel_shape", None)
    if given is None or len(given) != spatial:
        ctx.unsupported("a weight of symbolic spatial shape is not supported")
    return list(given)


def with_bias(ctx: NodeContext, result: Call, bias_index: int, spatial: int) -> SSAValue:
    """``result`` plus the optional 1-D bias input broadcast along the channels."""
    bias = ctx.optional_input(bias_index)
    if bias is None:
        return emit(ctx, result)
    channels = known_shape(ctx, bias, "the bias")
    column = call("relax.reshape", bias, Shape((1, *channels, *[1] * spatial)))
    return ctx.emit("relax.add", result, column)


def _transposed_window(
    ctx: NodeContext, sizes: list[PrimExpr], kernel: list[int]
) -> tuple[Window, list[int]]:
    """The window of ConvTranspose and its ``output_padding``. SAME padding
    yields ``output_shape`` (default ``size * stride``), the total split as
    ``auto_pad`` says, ``output_padding`` only moving it; without ``auto_pad``
    an ``output_shape`` crops or extends the end of the output."""
    count = len(kernel)
    strides = per_axis(ctx, "strides", count, 1)
    dilations = per_axis(ctx, "dilations", count, 1)
    output_padding = per_axis(ctx, "output_padding", count, 0)
    output_shape = ctx.attr("output_shape", None)
    same = auto_pad(ctx) in ("SAME_UPPER", "SAME_LOWER")
    if output_shape is None and not same:
        slide = window(ctx, sizes, kernel)
        return slide, output_padding
    if output_shape is not None and len(output_shape) != count:
        ctx.error(f"output_shape has {len(output_shape)} values for {count} spatial axes")
    before, after = [], []
    for axis, (k, stride, dilation, extra) in enumerate(
        zip(kernel, strides, dilations, output_padding, strict=True)
    ):
        span = (k - 1) * dilation + 1 + (extra if same else 0)
        if output_shape is None:
            total = span - stride
        else:
            size = static_dim(ctx, sizes[axis], f"output_shape along spatial axis {axis}")
            total = stride * (size - 1) + span - output_shape[axis]
        pads = split_total(ctx, total) if same else (0, total)
        before.append(pads[0])
        after.append(pads[1])
    return Window(kernel, strides, dilations, before, after), [0] * count


def convolution(
    ctx: NodeContext, x: SSAValue, weight: SSAValue, transposed: bool = False, **extra: object
) -> tuple[Call, int]:
    """``relax.nn.conv<k>d`` (``_transpose``) of ``x`` by ``weight`` with the node's
    window attributes (and ``extra`` ones), and ``k``."""
    dims = known_shape(ctx, x)
    spatial = spatial_count(ctx, dims)
    kernel = kernel_shape(ctx, weight, spatial)
    if transposed:
        slide, output_padding = _transposed_window(ctx, dims[2:], kernel)
        extra["output_padding"] = output_padding
    else:
        slide = window(ctx, dims[2:], kernel)
    result = call(
        f"relax.nn.conv{spatial}d" + ("_transpose" if transposed else ""),
        x,
        weight,
        strides=slide.strides,
        padding=slide.padding,
        dilation=slide.dilations,
        groups=ctx.attr("group", 1),
        **extra,
    )
    return result, spatial


@converter("Conv", since=1)
def conv(ctx: NodeContext) -> SSAValue:
    result, spatial = convolution(ctx, ctx.input(0), ctx.input(1))
    return with_bias(ctx, result, 2, spatial)


@converter("ConvTranspose", since=1)
def conv_transpose(ctx: NodeContext) -> SSAValue:
    result, spatial = convolution(ctx, ctx.input(0), ctx.input(1), transposed=True)
    return with_bias(ctx, result, 2, spatial)


@converter("CausalConvWithState", since=27)
def causal_conv_with_state(ctx: NodeContext) -> list[SSAValue]:
    """A depthwise 1-D convolution that sees only the current and past positions:
    the input after the carried ``past_state`` (the last ``k - 1`` positions of
    the previous call, zeros without one), convolved unpadded, plus the bias,
    through SiLU when ``activation`` asks (16-bit floats accumulated and activated
    in ``f32``, as ONNX's reference does); ``present_state`` carries
    the last ``k - 1`` positions of the padded input on."""
    x, weight = ctx.input(0), ctx.input(1)
    activation = ctx.attr("activation", "none")
    if activation not in ("none", "silu", "swish"):
        ctx.error(f"activation must be 'none', 'silu' or 'swish', got '{activation}'")
    dims = known_shape(ctx, x)
    if len(dims) != 3:
        ctx.error(f"the input must be of rank 3 (batch, channels, length), not {len(dims)}")
    channels = static_dim(ctx, dims[1], "the channels")
    (k,) = kernel_shape(ctx, weight, 1)
    past = ctx.optional_input(3)
    if past is None:
        past = ctx.emit("relax.zeros", Shape((dims[0], channels, k - 1)), dtype=ctx.dtype(x))
    padded = ctx.emit("relax.concat", (past, x), axis=2)
    dtype = data_type(ctx, x)
    narrow = dtype.is_float and dtype.bits < 32
    if narrow:
        accumulated = call("relax.nn.conv1d", padded, weight, groups=channels, out_dtype=FLOAT32)
        convolved = call("relax.astype", accumulated, dtype=dtype)
    else:
        convolved = call("relax.nn.conv1d", padded, weight, groups=channels)
    output = with_bias(ctx, convolved, 2, 1)
    if activation != "none":
        widened = call("relax.astype", output, dtype=FLOAT32) if narrow else output
        silu = call("relax.nn.silu", widened)
        output = emit(ctx, call("relax.astype", silu, dtype=dtype) if narrow else silu)
    length = simplify(as_expr(dims[2]))
    end = simplify(length + (k - 1))
    present = ctx.emit("relax.strided_slice", padded, [2], [length], [end], assume_inbound=True)
    return [output, present]
