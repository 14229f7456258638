"""Activations: element-wise functions with parameters (Elu, Selu, Celu,
LeakyRelu, PRelu, HardSigmoid, HardSwish, Gelu, Mish, Softplus, Softsign,
ThresholdedRelu, Shrink, Swish, SwiGLU)."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Call, call
from ..context import NodeContext
from .registry import converter
from .values import emit, scalar


def _exponential_linear(ctx: NodeContext, x: SSAValue, alpha: float, inner: float) -> SSAValue:
    """``x`` where it is positive, else ``alpha * (exp(x / inner) - 1)``."""
    scaled = x if inner == 1.0 else call("relax.divide", x, scalar(ctx, inner, x))
    negative = call(
        "relax.multiply",
        scalar(ctx, alpha, x),
        call("relax.subtract", call("relax.exp", scaled), scalar(ctx, 1.0, x)),
    )
    return ctx.emit("relax.where", call("relax.greater", x, scalar(ctx, 0.0, x)), x, negative)


@converter("Elu", since=1)
def elu(ctx: NodeContext) -> SSAValue:
    return _exponential_linear(ctx, ctx.input(0), ctx.attr("alpha", 1.0), 1.0)


@converter("Celu", since=12)
def celu(ctx: NodeContext) -> SSAValue:
    alpha = ctx.attr("alpha", 1.0)
    return _exponential_linear(ctx, ctx.input(0), alpha, alpha)


@converter("Selu", since=1)
def selu(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    unscaled = _exponential_linear(ctx, x, ctx.attr("alpha", 1.67326319217681884765625), 1.0)
    gamma = ctx.attr("gamma", 1.05070102214813232421875)
    return ctx.emit("relax.multiply", unscaled, scalar(ctx, gamma, x))


@converter("LeakyRelu", since=1)
def leaky_relu(ctx: NodeContext) -> SSAValue:
    return ctx.emit("relax.nn.leakyrelu", ctx.input(0), alpha=ctx.attr("alpha", 0.01))


@converter("PRelu", since=7)
def prelu(ctx: NodeContext) -> SSAValue:
    """``slope * x`` where ``x`` is negative; ``slope`` broadcasts to ``x``."""
    x = ctx.input(0)
    negative = call("relax.less", x, scalar(ctx, 0.0, x))
    return ctx.emit("relax.where", negative, call("relax.multiply", x, ctx.input(1)), x)


def _hard_sigmoid(ctx: NodeContext, x: SSAValue, alpha: float, beta: float) -> SSAValue:
    """``max(0, min(1, alpha * x + beta))``."""
    linear = call(
        "relax.add", call("relax.multiply", x, scalar(ctx, alpha, x)), scalar(ctx, beta, x)
    )
    return ctx.emit("relax.clip", linear, 0.0, 1.0)


@converter("HardSigmoid", since=1)
def hard_sigmoid(ctx: NodeContext) -> SSAValue:
    return _hard_sigmoid(ctx, ctx.input(0), ctx.attr("alpha", 0.2), ctx.attr("beta", 0.5))


@converter("HardSwish", since=14)
def hard_swish(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    return ctx.emit("relax.multiply", x, _hard_sigmoid(ctx, x, 1.0 / 6.0, 0.5))


@converter("Gelu", since=20)
def gelu(ctx: NodeContext) -> SSAValue:
    approximate = ctx.attr("approximate", "none")
    if approximate not in ("none", "tanh"):
        ctx.error(f"approximate must be 'none' or 'tanh', got '{approximate}'")
    op = "relax.nn.gelu" if approximate == "none" else "relax.nn.gelu_tanh"
    return ctx.emit(op, ctx.input(0))


@converter("Softplus", since=1)
def softplus(ctx: NodeContext) -> SSAValue:
    return ctx.emit("relax.nn.softplus", ctx.input(0))


@converter("Mish", since=18)
def mish(ctx: NodeContext) -> SSAValue:
    """``x * tanh(softplus(x))``."""
    x = ctx.input(0)
    return ctx.emit("relax.multiply", x, call("relax.tanh", call("relax.nn.softplus", x)))


@converter("Softsign", since=1)
def softsign(ctx: NodeContext) -> SSAValue:
    """``x / (1 + |x|)``."""
    x = ctx.input(0)
    return ctx.emit("relax.divide", x, call("relax.add", call("relax.abs", x), scalar(ctx, 1.0, x)))


@converter("ThresholdedRelu", since=10)
def thresholded_relu(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    above = call("relax.greater", x, scalar(ctx, ctx.attr("alpha", 1.0), x))
    return ctx.emit("relax.where", above, x, scalar(ctx, 0, x))


@converter("Shrink", since=9)
def shrink(ctx: NodeContext) -> SSAValue:
    """``x + bias`` below ``-lambd``, ``x - bias`` above ``lambd``, else 0."""
    x = ctx.input(0)
    bias, lambd = ctx.attr("bias", 0.0), ctx.attr("lambd", 0.5)
    above = call(
        "relax.where",
        call("relax.greater", x, scalar(ctx, lambd, x)),
        call("relax.subtract", x, scalar(ctx, bias, x)),
        scalar(ctx, 0, x),
    )
    below = call("relax.less", x, scalar(ctx, -lambd, x))
    return ctx.emit("relax.where", below, call("relax.add", x, scalar(ctx, bias, x)), above)


def _swish(ctx: NodeContext, x: SSAValue, alpha: float) -> Call:
    """``x * sigmoid(alpha * x)``."""
    if alpha == 1.0:
        return call("relax.nn.silu", x)
    scaled = call("relax.multiply", x, scalar(ctx, alpha, x))
    return call("relax.multiply", x, call("relax.sigmoid", scaled))


@converter("Swish", since=24)
def swish(ctx: NodeContext) -> SSAValue:
    return emit(ctx, _swish(ctx, ctx.input(0), ctx.attr("alpha", 1.0)))


@converter("SwiGLU", since=28)
def swiglu(ctx: NodeContext) -> SSAValue:
    """The gate ``A`` through Swish, times the value ``B`` (of the same shape)."""
    gate = _swish(ctx, ctx.input(0), ctx.attr("alpha", 1.0))
    return ctx.emit("relax.multiply", gate, ctx.input(1))
