"""Elementwise ONNX operators: math, logic, comparisons, bit operations, ``Where``,
the variadic ``Sum``/``Mean``/``Max``/``Min``, ``Clip`` and ``Relu``.

ONNX broadcasts as NumPy does (multidirectional, from opset 7) and asks both
operands of a binary operator to have one element type, as Relax's
broadcasting operators do; they map one to one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import SSAValue

from ..context import NodeContext
from .registry import converter

UNARY = {
    "Abs": "relax.abs",
    "Neg": "relax.negative",
    "Sqrt": "relax.sqrt",
    "Exp": "relax.exp",
    "Log": "relax.log",
    "Sin": "relax.sin",
    "Cos": "relax.cos",
    "Tan": "relax.tan",
    "Asin": "relax.asin",
    "Acos": "relax.acos",
    "Atan": "relax.atan",
    "Sinh": "relax.sinh",
    "Cosh": "relax.cosh",
    "Asinh": "relax.asinh",
    "Acosh": "relax.acosh",
    "Atanh": "relax.atanh",
    "Tanh": "relax.tanh",
    "Sigmoid": "relax.sigmoid",
    "Erf": "relax.erf",
    "Floor": "relax.floor",
    "Ceil": "relax.ceil",
    "Round": "relax.round",
    "Sign": "relax.sign",
    "Not": "relax.logical_not",
    "BitwiseNot": "relax.bitwise_not",
    "IsNaN": "relax.isnan",
    "Relu": "relax.nn.relu",
}
"""ONNX unary operators and the Relax operator each is."""

BINARY = {
    "Add": "relax.add",
    "Sub": "relax.subtract",
    "Mul": "relax.multiply",
    "Div": "relax.divide",
    "And": "relax.logical_and",
    "Or": "relax.logical_or",
    "Xor": "relax.logical_xor",
    "Equal": "relax.equal",
    "Less": "relax.less",
    "LessOrEqual": "relax.less_equal",
    "Greater": "relax.greater",
    "GreaterOrEqual": "relax.greater_equal",
    "BitwiseAnd": "relax.bitwise_and",
    "BitwiseOr": "relax.bitwise_or",
    "BitwiseXor": "relax.bitwise_xor",
}
"""ONNX binary operators (operands of one type) and the Relax operator each is."""


def _unary(op: str) -> Callable[[NodeContext], SSAValue]:
    def convert(ctx: NodeContext) -> SSAValue:
        return ctx.emit(op, ctx.input(0))

    return convert


def _binary(op: str) -> Callable[[NodeContext], SSAValue]:
    def convert(ctx: NodeContext) -> SSAValue:
        return ctx.emit(op, ctx.input(0), ctx.input(1))

    return convert


for _onnx, _relax in UNARY.items():
    converter(_onnx)(_unary(_relax))
for _onnx, _relax in BINARY.items():
    converter(_onnx)(_binary(_relax))


@converter("Reciprocal")
def reciprocal(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    return ctx.emit("relax.divide", ctx.const(1, ctx.dtype(x)), x)


@converter("Pow")
def power(ctx: NodeContext) -> SSAValue:
    """The result has the base's type; the exponent may have another (opset 12).
    Relax's ``power`` takes floats: an integer base is raised in ``float64``
    (exact below 2**53) and converted back."""
    base, exponent = ctx.input(0), ctx.input(1)
    dtype = ctx.dtype(base)
    work = dtype if dtype.startswith("float") else "float64"
    raised = ctx.emit("relax.power", _as(ctx, base, work), _as(ctx, exponent, work))
    return _as(ctx, raised, dtype)


def _as(ctx: NodeContext, value: SSAValue, dtype: str) -> SSAValue:
    return value if ctx.dtype(value) == dtype else ctx.emit("relax.astype", value, dtype=dtype)


@converter("Mod")
def mod(ctx: NodeContext) -> SSAValue:
    """``fmod = 1``: the remainder has the dividend's sign, as C's ``fmod``;
    ``fmod = 0``: the divisor's, as Python's ``%``. For floats (opset 28), ``fmod`` moved
    by the divisor when the signs differ (NumPy's rule, which keeps ``-5 % inf``
    and ``x % 0`` right where ``x - floor(x / y) * y`` gives NaN)."""
    x, y = ctx.input(0), ctx.input(1)
    if ctx.attr("fmod", 0):
        return ctx.emit("relax.mod", x, y)
    if not ctx.dtype(x).startswith("float"):
        return ctx.emit("relax.floor_mod", x, y)
    if ctx.opset < 28:
        ctx.error("fmod must be 1 for floating-point operands before opset 28")
    remainder = ctx.emit("relax.mod", x, y)
    zero = ctx.const(0, ctx.dtype(x))
    signs_differ = ctx.emit(
        "relax.not_equal", ctx.emit("relax.less", remainder, zero), ctx.emit("relax.less", y, zero)
    )
    moved = ctx.emit(
        "relax.logical_and", ctx.emit("relax.not_equal", remainder, zero), signs_differ
    )
    return ctx.emit("relax.where", moved, ctx.emit("relax.add", remainder, y), remainder)


@converter("BitShift")
def bit_shift(ctx: NodeContext) -> SSAValue:
    direction = ctx.attr("direction")
    if direction not in ("LEFT", "RIGHT"):
        ctx.error(f"direction must be LEFT or RIGHT, got '{direction}'")
    op = "relax.left_shift" if direction == "LEFT" else "relax.right_shift"
    return ctx.emit(op, ctx.input(0), ctx.input(1))


@converter("IsInf", since=10)
def is_inf(ctx: NodeContext) -> SSAValue:
    """``detect_positive``/``detect_negative`` narrow the test to one sign."""
    x = ctx.input(0)
    positive, negative = ctx.attr("detect_positive", 1), ctx.attr("detect_negative", 1)
    infinite = ctx.emit("relax.isinf", x)
    if positive and negative:
        return infinite
    if not positive and not negative:
        return ctx.emit("relax.zeros_like", infinite)
    zero = ctx.const(0, ctx.dtype(x))
    side = ctx.emit("relax.greater" if positive else "relax.less", x, zero)
    return ctx.emit("relax.logical_and", infinite, side)


@converter("Where", since=9)
def where(ctx: NodeContext) -> SSAValue:
    return ctx.emit("relax.where", ctx.input(0), ctx.input(1), ctx.input(2))


def _variadic(op: str, mean: bool = False) -> Callable[[NodeContext], SSAValue]:
    def convert(ctx: NodeContext) -> SSAValue:
        operands = [ctx.input(i) for i in range(ctx.num_inputs)]
        if not operands:
            ctx.error("needs at least one input")
        result = operands[0]
        for operand in operands[1:]:
            result = ctx.emit(op, result, operand)
        if mean:
            count = ctx.const(len(operands), ctx.dtype(result))
            result = ctx.emit("relax.divide", result, count)
        return result

    return convert


converter("Sum")(_variadic("relax.add"))
converter("Mean")(_variadic("relax.add", mean=True))
converter("Max")(_variadic("relax.maximum"))
converter("Min")(_variadic("relax.minimum"))


@converter("Clip")
def clip_attributes(ctx: NodeContext) -> SSAValue:
    """Before opset 11, the bounds are the attributes ``min`` and ``max``."""
    return _clip(ctx, ctx.input(0), ctx.attr("min", None), ctx.attr("max", None))


@converter("Clip", since=11)
def clip(ctx: NodeContext) -> SSAValue:
    """From opset 11, the bounds are optional inputs (absent: unbounded)."""
    return _clip(ctx, ctx.input(0), _bound(ctx, 1), _bound(ctx, 2))


Bound = SSAValue | int | float | None


def _bound(ctx: NodeContext, i: int) -> Bound:
    """A bound input: its number when known, else its value (None: absent)."""
    known = ctx.constant(i)
    if known is not None and known.size == 1:
        return known.reshape(()).item()
    return ctx.optional_input(i)


def _clip(ctx: NodeContext, x: SSAValue, low: Bound, high: Bound) -> SSAValue:
    """``min(max(x, low), high)``: ``relax.clip`` when both bounds are ordered
    numbers (``max`` wins when ``low > high``, as in ONNX)."""
    numbers = all(isinstance(b, int | float) and not np.isnan(b) for b in (low, high))
    if numbers and low <= high:  # pyright: ignore[reportOperatorIssue]
        return ctx.emit("relax.clip", x, low, high)
    result = x
    for bound, op in ((low, "relax.maximum"), (high, "relax.minimum")):
        if bound is not None:
            operand = bound if isinstance(bound, SSAValue) else ctx.const(bound, ctx.dtype(x))
            result = ctx.emit(op, result, operand)
    return result
