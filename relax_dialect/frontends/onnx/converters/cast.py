"""``Cast`` and ``CastLike``: ``relax.astype`` (IEEE conversion, rounding to
nearest even), with ONNX's rules where they differ from it:

- to a float8 format with ``saturate`` (the default), values beyond the format's
  largest finite value, infinities included, become it (NaN stays NaN);
  without, they overflow as the conversion does (to infinity or NaN);
- to a narrow integer (``INT4``, ``UINT4``, ``INT2``, ``UINT2``), the value is
  converted to ``int32`` (floats truncated toward zero) and wrapped to its bits,
  as ml_dtypes does, then held in ``int8``/``uint8``;
- to ``FLOAT8E8M0``, a power of two chosen by ``round_mode`` (``up`` by default,
  ``nearest``, ``down``) from ``|x|``, computed in ``f32`` (``power_of_two``).
"""

from __future__ import annotations

import numpy as np
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
        x = power_of_two(ctx, x)
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


E8M0_LOWEST, E8M0_SUBNORMAL_UP, E8M0_LARGEST = 2.0**-127, 2.0**-126, 2.0**127


def power_of_two(ctx: NodeContext, x: SSAValue) -> SSAValue:
    """The ``f32`` power of two ONNX's ``FLOAT8E8M0`` conversion gives ``x``: of
    ``a = |x|``, its power ``p = 2^floor(log2 a)`` or ``2p`` by ``round_mode`` (``up``:
    when ``a > p``; ``nearest``: when ``a >= 1.5 p``); an ``f32`` subnormal or zero
    is ``2^-127`` or ``2^-126`` (``up``: above zero; ``nearest``: above ``2^-127``);
    beyond ``2^127``, ``saturate`` keeps ``2^127`` (else infinity, NaN in the format);
    NaN and infinities are NaN."""
    mode = ctx.attr("round_mode", "up")
    if mode not in ("up", "nearest", "down"):
        ctx.error(f"round_mode must be up, nearest or down, got '{mode}'")
    if data_type(ctx, x) != FLOAT32:
        x = ctx.emit("relax.astype", x, dtype=FLOAT32)
    a = call("relax.abs", x)
    const = ctx.const
    # the nearest power of two (exact for a normal a), then the one at or below a
    capped = call("relax.minimum", a, const(E8M0_LARGEST, "float32"))
    nearest = call(
        "relax.astype",
        call("relax.astype", capped, dtype=DataType.parse("float8_e8m0fnu")),
        dtype=FLOAT32,
    )
    below = call(
        "relax.where",
        call("relax.greater", nearest, capped),
        call("relax.multiply", nearest, const(0.5, "float32")),
        nearest,
    )
    lowest = const(E8M0_LOWEST, "float32")
    if mode == "up":
        goes_up = call("relax.greater", a, below)
        small_up = call("relax.greater", a, const(0.0, "float32"))
    elif mode == "nearest":
        goes_up = call(
            "relax.greater_equal", a, call("relax.multiply", below, const(1.5, "float32"))
        )
        small_up = call("relax.greater", a, lowest)
    else:
        goes_up = small_up = None
    double = call("relax.multiply", below, const(2.0, "float32"))
    rounded = below if goes_up is None else call("relax.where", goes_up, double, below)
    if ctx.attr("saturate", 1):
        rounded = call("relax.minimum", rounded, const(E8M0_LARGEST, "float32"))
    up = const(E8M0_SUBNORMAL_UP, "float32")
    small = lowest if small_up is None else call("relax.where", small_up, up, lowest)
    normal = call("relax.greater_equal", a, const(E8M0_SUBNORMAL_UP, "float32"))
    finite = call("relax.where", normal, rounded, small)
    special = call("relax.logical_or", call("relax.isnan", x), call("relax.isinf", x))
    return ctx.emit("relax.where", special, const(np.float32(np.nan)), finite)
