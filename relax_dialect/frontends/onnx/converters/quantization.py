"""Linear quantization: ``QuantizeLinear``, ``DequantizeLinear``,
``DynamicQuantizeLinear``, and the integer products ``MatMulInteger`` and
``QLinearMatMul``.

``QuantizeLinear``/``DequantizeLinear`` are ``relax.quantize``/``relax.dequantize``
(per tensor, or per axis with a 1-D scale), or their formulas with the
parameters repeated over blocks along ``axis`` (``block_size``); the zero point's
type is the quantized type (``output_dtype``, by default ``uint8``, when it is
absent). The integer products compute as ONNX's reference does: operands widened
to ``int32`` less their zero points, an ``int32`` product, then (``QLinearMatMul``,
``QLinearConv``) scaled by ``a_scale * b_scale / y_scale`` and requantized.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import call
from ....dtype import FLOAT32, DataType
from ..context import NodeContext
from ..dtypes import NARROW_INTEGERS, onnx_code
from .cast import converted
from .convolution import convolution
from .registry import converter
from .values import emit, known_shape, normalized_axis, onnx_data_type

INT32 = DataType("int", 32)
FLOAT64 = DataType("float", 64)
UINT8 = DataType("uint", 8)


def _axis(ctx: NodeContext, scale: SSAValue) -> int:
    """``axis`` for a per-axis scale; -1 (any) for one scale per tensor."""
    shape = ctx.shape(scale)
    if shape is not None and (shape == [] or shape == [1]):
        return -1
    return ctx.attr("axis", 1)


def _dtype(ctx: NodeContext, value: SSAValue) -> DataType:
    return ctx.tensor_type(value).data_type


def _float(ctx: NodeContext, x: SSAValue, dtype: DataType) -> SSAValue:
    """``x`` as floating point: itself when it is, else converted to ``dtype``."""
    return x if _dtype(ctx, x).is_float else ctx.emit("relax.astype", x, dtype=dtype)


def _blocked(ctx: NodeContext, x: SSAValue, params: list[SSAValue]) -> list[SSAValue] | None:
    """With ``block_size``, the parameters repeated over their blocks along
    ``axis`` to ``x``'s shape (the last block may be cut short); else None."""
    block = ctx.attr("block_size", 0)
    if not block:
        return None
    dims = known_shape(ctx, x)
    axis = normalized_axis(ctx, ctx.attr("axis", 1), len(dims))

    def spread(param: SSAValue) -> SSAValue:
        if ctx.rank(param) == 0:  # one value for every block
            return param
        repeated = call("relax.repeat", param, repeats=block, axis=axis)
        return emit(ctx, call("relax.strided_slice", repeated, [axis], [0], [dims[axis]]))

    return [spread(p) for p in params]


def _laid_out(ctx: NodeContext, x: SSAValue, params: list[SSAValue]) -> list[SSAValue]:
    """The parameters shaped to broadcast against ``x``: repeated over their blocks
    (``block_size``), or a per-axis vector laid along ``axis``."""
    blocked = _blocked(ctx, x, params)
    if blocked is not None:
        return blocked
    if _axis(ctx, params[0]) == -1:
        return params
    rank = len(known_shape(ctx, x))
    axis = normalized_axis(ctx, ctx.attr("axis", 1), rank)
    trailing = list(range(1, rank - axis))
    return [ctx.emit("relax.expand_dims", p, axis=trailing) if trailing else p for p in params]


def _quantized_code(ctx: NodeContext, zero_point: SSAValue | None) -> int:
    """The ONNX element type ``QuantizeLinear`` produces: its zero point's, else
    ``output_dtype``, else ``UINT8``."""
    code = ctx.element_code(2) if zero_point is not None else None
    if code is None and zero_point is not None:  # no ONNX type: the Relax one's
        return onnx_code(_dtype(ctx, zero_point))
    return code or ctx.attr("output_dtype", 0) or 2


@converter("QuantizeLinear", since=10)
def quantize_linear(ctx: NodeContext) -> SSAValue:
    """``relax.quantize``; else its formula with the parameters laid out
    (``block_size``, or a narrow integer type, whose range Relax's types do not
    carry): ``clip(round(x / scale) + zero_point)``; to a float format, ``x /
    scale`` (plus the zero point for ``FLOAT4E2M1``, as ONNX's reference) cast as
    ``Cast`` casts (``saturate``)."""
    x, scale = ctx.input(0), ctx.input(1)
    zero_point = ctx.optional_input(2)
    code = _quantized_code(ctx, zero_point)
    if zero_point is None:
        zero_point = ctx.const(np.zeros((), onnx_data_type(ctx, code).to_numpy()))
    x = _float(ctx, x, _dtype(ctx, scale))
    target = _dtype(ctx, zero_point)
    narrow = NARROW_INTEGERS.get(code)
    if target.is_extension_float:
        scale, zero_point = _laid_out(ctx, x, [scale, zero_point])
        scaled = ctx.emit("relax.divide", x, scale)
        if target.code == "float4_e2m1fn":
            shift = ctx.emit("relax.astype", zero_point, dtype=_dtype(ctx, x))
            scaled = ctx.emit("relax.add", scaled, shift)
        return converted(ctx, scaled, code)
    if ctx.attr("block_size", 0) or narrow is not None:
        scale, zero_point = _laid_out(ctx, x, [scale, zero_point])
        shifted = call(
            "relax.add",
            call("relax.round", call("relax.divide", x, scale)),
            call("relax.astype", zero_point, dtype=_dtype(ctx, x)),
        )
        bounds = np.iinfo(target.to_numpy())
        low, high = (narrow.low, narrow.high) if narrow else (int(bounds.min), int(bounds.max))
        clipped = call("relax.clip", shifted, low, high)
        return ctx.emit("relax.astype", clipped, dtype=target)
    return ctx.emit(
        "relax.quantize", x, scale, zero_point, axis=_axis(ctx, scale), out_dtype=target
    )


@converter("DequantizeLinear", since=10)
def dequantize_linear(ctx: NodeContext) -> SSAValue:
    """``relax.dequantize``; blocked: ``(x - zero_point) * scale`` (the difference
    in ``int32``) with the parameters repeated over their blocks; from a float
    format, ``x * scale`` in ``float32`` (ONNX's reference ignores the zero point)."""
    x, scale = ctx.input(0), ctx.input(1)
    zero_point = ctx.optional_input(2)
    if _dtype(ctx, x).is_extension_float:
        (scale,) = _laid_out(ctx, x, [scale])
        wide = [ctx.emit("relax.astype", v, dtype=FLOAT32) for v in (x, scale)]
        product = ctx.emit("relax.multiply", *wide)
        return ctx.emit("relax.astype", product, dtype=_dtype(ctx, scale))
    if zero_point is None:
        zero_point = ctx.const(np.zeros((), ctx.dtype(x)))
    blocked = _blocked(ctx, x, [scale, zero_point])
    if blocked is not None:
        scale, zero_point = blocked
        difference = _widened(ctx, x, zero_point, row=False)
        return ctx.emit(
            "relax.multiply", call("relax.astype", difference, dtype=_dtype(ctx, scale)), scale
        )
    return ctx.emit(
        "relax.dequantize",
        x,
        scale,
        zero_point,
        axis=_axis(ctx, scale),
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


def _integer_convolution(ctx: NodeContext, x_zero: int, w: int, w_zero: int) -> SSAValue:
    """The ``int32`` convolution of the widened input and weight; a 1-D weight zero
    point holds one value per output channel."""
    x = _widened(ctx, ctx.input(0), ctx.optional_input(x_zero), row=False)
    weight = ctx.input(w)
    zero = ctx.optional_input(w_zero)
    rank = ctx.rank(weight)
    if zero is not None and ctx.rank(zero) == 1 and rank is not None:
        zero = ctx.emit("relax.expand_dims", zero, axis=list(range(1, rank)))
    result, _ = convolution(ctx, x, _widened(ctx, weight, zero, row=False), out_dtype=INT32)
    return emit(ctx, result)


@converter("ConvInteger", since=10)
def conv_integer(ctx: NodeContext) -> SSAValue:
    return _integer_convolution(ctx, 2, 1, 3)


@converter("QLinearConv", since=10)
def qlinear_conv(ctx: NodeContext) -> SSAValue:
    """The ``int32`` convolution plus the ``int32`` bias, scaled by ``x_scale *
    w_scale / y_scale`` (a 1-D ``w_scale`` per output channel), requantized."""
    product = _integer_convolution(ctx, 2, 3, 5)
    bias = ctx.optional_input(8)
    rank = ctx.rank(product)
    if bias is not None and rank is not None:
        column = ctx.emit("relax.expand_dims", bias, axis=list(range(1, rank - 1)))
        product = ctx.emit("relax.add", product, column)
    w_scale = ctx.input(4)
    if ctx.rank(w_scale) == 1 and rank is not None:
        w_scale = ctx.emit("relax.expand_dims", w_scale, axis=list(range(1, rank - 1)))
    return _requantized(ctx, product, ctx.input(1), w_scale, ctx.input(6), ctx.input(7))


@converter("MatMulInteger", since=10)
def matmul_integer(ctx: NodeContext) -> SSAValue:
    return _integer_product(ctx, 0, 2, 1, 3)


@converter("QLinearMatMul", since=10)
def qlinear_matmul(ctx: NodeContext) -> SSAValue:
    """The ``int32`` product scaled by ``a_scale * b_scale / y_scale``, requantized."""
    product = _integer_product(ctx, 0, 2, 3, 5)
    a_scale = _per_row(ctx, ctx.input(1), row=True)
    return _requantized(ctx, product, a_scale, ctx.input(4), ctx.input(6), ctx.input(7))


def _requantized(
    ctx: NodeContext,
    product: SSAValue,
    a_scale: SSAValue,
    b_scale: SSAValue,
    y_scale: SSAValue,
    y_zero: SSAValue,
) -> SSAValue:
    """An ``int32`` product of operands of scales ``a_scale`` and ``b_scale`` as the
    type of ``y_zero`` at ``y_scale``, as ONNX's reference computes it: the ratio
    in the scales' type, the scaled product in ``float64`` plus the zero point,
    rounded half to even, saturated."""
    ratio = ctx.emit("relax.divide", ctx.emit("relax.multiply", a_scale, b_scale), y_scale)
    scaled = ctx.emit(
        "relax.multiply",
        ctx.emit("relax.astype", product, dtype=FLOAT64),
        ctx.emit("relax.astype", ratio, dtype=FLOAT64),
    )
    shifted = ctx.emit("relax.add", scaled, ctx.emit("relax.astype", y_zero, dtype=FLOAT64))
    target = _dtype(ctx, y_zero)
    bounds = np.iinfo(target.to_numpy())
    rounded = ctx.emit(
        "relax.round", ctx.emit("relax.clip", shifted, int(bounds.min), int(bounds.max))
    )
    return ctx.emit("relax.astype", rounded, dtype=target)
