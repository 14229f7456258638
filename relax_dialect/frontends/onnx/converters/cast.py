"""``Cast`` and ``CastLike``: ``relax.astype`` (IEEE conversion, rounding to
nearest even), with ONNX's rules where they differ from it:

- to a float8 format with ``saturate`` (the default), values beyond the format's
  largest finite value, infinities included, become it (NaN stays NaN);
  without, they overflow as the conversion does (to infinity or NaN);
- to a narrow integer (``INT4``, ``UINT4``, ``INT2``, ``UINT2``), the value is
  converted to ``int32`` (floats truncated toward zero) and wrapped to its bits,
  as ml_dtypes does, then held in ``int8``/``uint8``;
- to ``FLOAT8E8M0``, ONNX rounds by ``round_mode`` and ignores the sign, which
  no Relax conversion does: refused.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import call
from ....dtype import FLOAT32, FORMATS, DataType
from ..context import NodeContext
from ..dtypes import NARROW_INTEGERS, NarrowInteger
from .registry import converter
from .values import data_type, onnx_data_type

INT32 = DataType("int", 32)
SATURATING = ("float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz")
"""The formats ONNX's ``saturate`` applies to."""


@converter("Cast")
def cast(ctx: NodeContext) -> SSAValue:
    return converted(ctx, ctx.input(0), ctx.attr("to"))


@converter("CastLike", since=15)
def cast_like(ctx: NodeContext) -> SSAValue:
    code = ctx.element_code(1)
    if code is None:  # ONNX gives no type: the Relax one (never a narrow integer)
        return ctx.emit("relax.astype", ctx.input(0), dtype=data_type(ctx, ctx.input(1)))
    return converted(ctx, ctx.input(0), code)


def converted(ctx: NodeContext, x: SSAValue, code: int) -> SSAValue:
    """``x`` converted to the ONNX element type ``code`` as ``Cast`` converts."""
    narrow = NARROW_INTEGERS.get(code)
    if narrow is not None:
        return ctx.emit("relax.astype", wrapped(ctx, x, narrow), dtype=narrow.storage)
    target = onnx_data_type(ctx, code)
    if target.code == "float8_e8m0fnu":
        ctx.unsupported("conversion to FLOAT8E8M0 (rounded by round_mode) is not supported")
    if target.code in SATURATING and ctx.attr("saturate", 1):
        x = saturated(ctx, x, FORMATS[target.code].largest)
    return ctx.emit("relax.astype", x, dtype=target)


def wrapped(ctx: NodeContext, x: SSAValue, narrow: NarrowInteger) -> SSAValue:
    """``x`` as ``int32``, wrapped to the range of ``narrow``: ``((v - low) & mask) + low``."""
    value = call("relax.astype", x, dtype=INT32)
    mask = call(
        "relax.bitwise_and",
        call("relax.subtract", value, ctx.const(narrow.low, "int32")),
        ctx.const((1 << narrow.bits) - 1, "int32"),
    )
    return ctx.emit("relax.add", mask, ctx.const(narrow.low, "int32"))


def saturated(ctx: NodeContext, x: SSAValue, largest: float) -> SSAValue:
    """``x`` (as a float) clipped to ``[-largest, largest]``, NaN kept."""
    if not data_type(ctx, x).is_float:
        x = ctx.emit("relax.astype", x, dtype=FLOAT32)
    clipped = call("relax.clip", x, -largest, largest)
    return ctx.emit("relax.where", call("relax.isnan", x), x, clipped)
