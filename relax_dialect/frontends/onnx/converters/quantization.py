"""Linear quantization: ``QuantizeLinear``, ``DequantizeLinear``,
``DynamicQuantizeLinear``, and the integer products ``MatMulInteger`` and
``QLinearMatMul``.

``QuantizeLinear``/``DequantizeLinear`` are ``relax.quantize``/``relax.dequantize``
(per tensor, or per axis with a 1-D scale); the zero point's type is the
quantized type (``uint8`` when it is absent). The integer products compute as
ONNX's reference does: operands widened to ``int32`` less their zero points, an
``int32`` product, then (``QLinearMatMul``) scaled by ``a_scale * b_scale /
y_scale`` and requantized. Blocked quantization (``block_size``) is not
supported.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....dtype import FLOAT32, DataType
from ..context import NodeContext
from .registry import converter

INT32 = DataType("int", 32)
UINT8 = DataType("uint", 8)


def _axis(ctx: NodeContext, x: SSAValue, scale: SSAValue) -> int:
    """``axis`` for a per-axis scale; -1 (any) for one scale per tensor."""
    if ctx.attr("block_size", 0):
        ctx.unsupported("blocked quantization (block_size) is not supported")
    shape = ctx.shape(scale)
    if shape is not None and (shape == [] or shape == [1]):
        return -1
    return ctx.attr("axis", 1)


def _dtype(ctx: NodeContext, value: SSAValue) -> DataType:
    return ctx.tensor_type(value).data_type


def _float(ctx: NodeContext, x: SSAValue, dtype: DataType) -> SSAValue:
    """``x`` as floating point: itself when it is, else converted to ``dtype``."""
    return x if _dtype(ctx, x).is_float else ctx.emit("relax.astype", x, dtype=dtype)


@converter("QuantizeLinear", since=10)
def quantize_linear(ctx: NodeContext) -> SSAValue:
    x, scale = ctx.input(0), ctx.input(1)
    zero_point = ctx.optional_input(2)
    if zero_point is None:
        zero_point = ctx.const(np.zeros((), np.uint8))
    x = _float(ctx, x, _dtype(ctx, scale))
    return ctx.emit(
        "relax.quantize",
        x,
        scale,
        zero_point,
        axis=_axis(ctx, x, scale),
        out_dtype=_dtype(ctx, zero_point),
    )


@converter("DequantizeLinear", since=10)
def dequantize_linear(ctx: NodeContext) -> SSAValue:
    x, scale = ctx.input(0), ctx.input(1)
    zero_point = ctx.optional_input(2)
    if zero_point is None:
        zero_point = ctx.const(np.zeros((), ctx.dtype(x)))
    return ctx.emit(
        "relax.dequantize",
        x,
        scale,
        zero_point,
        axis=_axis(ctx, x, scale),
        out_dtype=_dtype(ctx, scale),
    )


@converter("DynamicQuantizeLinear", since=11)
def dynamic_quantize_linear(ctx: NodeContext) -> list[SSAValue]:
    """``uint8`` over the range of ``x`` widened to hold 0: ``scale = (max - min) /
    255`` (``1 / 255`` when the range is empty), ``zero_point = round(-min /
    scale)`` saturated, both computed by the graph."""
    x = ctx.input(0)
    dtype = ctx.dtype(x)
    zero = ctx.const(np.zeros((), dtype))
    high = ctx.emit("relax.maximum", ctx.emit("relax.max", x), zero)
    low = ctx.emit("relax.minimum", ctx.emit("relax.min", x), zero)
    span = ctx.emit("relax.subtract", high, low)
    empty = ctx.emit("relax.equal", span, zero)
    span = ctx.emit("relax.where", empty, ctx.const(np.ones((), dtype)), span)
    scale = ctx.emit("relax.divide", span, ctx.const(np.full((), 255, dtype)))
    shifted = ctx.emit(
        "relax.round", ctx.emit("relax.divide", ctx.emit("relax.negative", low), scale)
    )
    zero_point = ctx.emit("relax.astype", ctx.emit("relax.clip", shifted, 0, 255), dtype=UINT8)
    y = ctx.emit("relax.quantize", x, scale, zero_point, out_dtype=UINT8)
    return [y, scale, zero_point]


def _widened(ctx: NodeContext, value: SSAValue, zero_point: SSAValue | None, row: bool) -> SSAValue:
    """``value - zero_point`` in ``int32``; a 1-D zero point of a left operand
    (``row``) holds one value per row."""
    value = ctx.emit("relax.astype", value, dtype=INT32)
    if zero_point is None:
        return value
    zero_point = ctx.emit("relax.astype", _per_row(ctx, zero_point, row), dtype=INT32)
    return ctx.emit("relax.subtract", value, zero_point)


def _per_row(ctx: NodeContext, value: SSAValue, row: bool) -> SSAValue:
    """A left operand's 1-D parameter (one per row) as a column, to broadcast."""
    if row and ctx.rank(value) == 1:
        return ctx.emit("relax.expand_dims", value, axis=[-1])
    return value


def _integer_product(ctx: NodeContext, a: int, a_zero: int, b: int, b_zero: int) -> SSAValue:
    left = _widened(ctx, ctx.input(a), ctx.optional_input(a_zero), row=True)
    right = _widened(ctx, ctx.input(b), ctx.optional_input(b_zero), row=False)
    return ctx.emit("relax.matmul", left, right, out_dtype=INT32)


@converter("MatMulInteger", since=10)
def matmul_integer(ctx: NodeContext) -> SSAValue:
    return _integer_product(ctx, 0, 2, 1, 3)


@converter("QLinearMatMul", since=10)
def qlinear_matmul(ctx: NodeContext) -> SSAValue:
    """The ``int32`` product scaled by ``a_scale * b_scale / y_scale`` (computed in
    the scales' type), requantized with ``y_zero_point``."""
    product = _integer_product(ctx, 0, 2, 3, 5)
    a_scale = _per_row(ctx, ctx.input(1), row=True)
    b_scale, y_scale, y_zero = ctx.input(4), ctx.input(6), ctx.input(7)
    ratio = ctx.emit("relax.divide", ctx.emit("relax.multiply", a_scale, b_scale), y_scale)
    ratio = ctx.emit("relax.astype", ratio, dtype=FLOAT32)
    scaled = ctx.emit("relax.multiply", ctx.emit("relax.astype", product, dtype=FLOAT32), ratio)
    one = ctx.const(np.ones((), np.float32))
    return ctx.emit("relax.quantize", scaled, one, y_zero, out_dtype=_dtype(ctx, y_zero))
