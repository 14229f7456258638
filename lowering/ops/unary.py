"""Element-wise unary operators (and ``clip``) → ``linalg.generic``.

Numerics as the reference kernels: ``ceil``/``floor``/``round``/``trunc``
leave integers unchanged and ``round`` rounds half to even
(``math.roundeven``), ``sign(NaN)`` is 0, ``erf`` of ``f16`` is computed in
``f32``, ``isfinite``/``isinf``/``isnan`` are constant on integers, and
``clip`` is ``max(min(x, hi), lo)`` with selects on ordered comparisons (NaN
clips to ``hi``). ``negative`` of ``bool`` and ``logical_not`` of non-``bool``
data are lowering errors (TVM rejects them).
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.ir import SSAValue

from relax_dialect.dtype import BOOL, FLOAT32, DataType
from relax_dialect.ops import unary as ops

from ..lowerer import Lowerer
from ..type_conversion import is_unsigned
from . import lowers
from .common import compare, constant, convert, data_type, elementwise, select

Compute = Callable[[Lowerer, SSAValue, DataType], SSAValue]


def _math(op) -> Compute:
    """A ``math`` operation on floats."""
    return lambda lw, x, dt: lw.make(op, x)


def _on_floats(op) -> Compute:
    """A ``math`` operation on floats, the identity on integers."""
    return lambda lw, x, dt: lw.make(op, x) if dt.is_float else x


def _abs(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    if dt.is_float:
        return lw.make(math.AbsFOp, x)
    return x if is_unsigned(dt) else lw.make(math.AbsIOp, x)


def _bitwise_not(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    return lw.make(arith.XOrIOp, x, constant(lw, -1 if not dt.is_bool else 1, dt))


def _negative(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    if dt.is_float:
        return lw.make(arith.NegfOp, x)
    return lw.make(arith.SubiOp, constant(lw, 0, dt), x)


def _sign(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    zero = constant(lw, 0, dt)
    positive = select(lw, compare(lw, "gt", x, zero, dt), constant(lw, 1, dt), zero)
    if is_unsigned(dt):
        return positive
    return select(lw, compare(lw, "lt", x, zero, dt), constant(lw, -1, dt), positive)


def _rsqrt(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    return lw.make(arith.DivfOp, constant(lw, 1, dt), lw.make(math.SqrtOp, x))


def _sigmoid(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    one = constant(lw, 1, dt)
    exp = lw.make(math.ExpOp, lw.make(arith.NegfOp, x))
    return lw.make(arith.DivfOp, one, lw.make(arith.AddfOp, one, exp))


def _erf(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    if dt.bits == 16:
        wide = lw.make(math.ErfOp, convert(lw, x, dt, FLOAT32))
        return convert(lw, wide, FLOAT32, dt)
    return lw.make(math.ErfOp, x)


def _float_check(predicate: str, on_integers: bool) -> Compute:
    """``|x| <predicate> inf`` (``uno``: ``x != x``) on floats, a constant on integers."""

    def check(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
        if not dt.is_float:
            return constant(lw, on_integers, BOOL)
        if predicate == "uno":
            return lw.make(arith.CmpfOp, x, x, "uno")
        magnitude = lw.make(math.AbsFOp, x)
        return lw.make(arith.CmpfOp, magnitude, constant(lw, pymath.inf, dt), predicate)

    return check


def _square(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    return lw.make(arith.MulfOp if dt.is_float else arith.MuliOp, x, x)


def _logical_not(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    return lw.make(arith.XOrIOp, x, constant(lw, 1, BOOL))


COMPUTE: dict[type[ops.UnaryOp], Compute] = {
    ops.AbsOp: _abs,
    ops.AcosOp: _math(math.AcosOp),
    ops.AcoshOp: _math(math.AcoshOp),
    ops.AsinOp: _math(math.AsinOp),
    ops.AsinhOp: _math(math.AsinhOp),
    ops.AtanOp: _math(math.AtanOp),
    ops.AtanhOp: _math(math.AtanhOp),
    ops.BitwiseNotOp: _bitwise_not,
    ops.CeilOp: _on_floats(math.CeilOp),
    ops.CosOp: _math(math.CosOp),
    ops.CoshOp: _math(math.CoshOp),
    ops.ErfOp: _erf,
    ops.ExpOp: _math(math.ExpOp),
    ops.FloorOp: _on_floats(math.FloorOp),
    ops.IsFiniteOp: _float_check("one", True),
    ops.IsInfOp: _float_check("oeq", False),
    ops.IsNanOp: _float_check("uno", False),
    ops.LogOp: _math(math.LogOp),
    ops.LogicalNotOp: _logical_not,
    ops.NegativeOp: _negative,
    ops.RoundOp: _on_floats(math.RoundEvenOp),
    ops.RsqrtOp: _rsqrt,
    ops.SigmoidOp: _sigmoid,
    ops.SignOp: _sign,
    ops.SinOp: _math(math.SinOp),
    ops.SinhOp: _math(math.SinhOp),
    ops.SqrtOp: _math(math.SqrtOp),
    ops.SquareOp: _square,
    ops.TanOp: _math(math.TanOp),
    ops.TanhOp: _math(math.TanhOp),
    ops.TruncOp: _on_floats(math.TruncOp),
}


@lowers(*COMPUTE)
def lower_unary(lw: Lowerer, op: ops.UnaryOp) -> SSAValue:
    dtype = data_type(op.x.type)
    if isinstance(op, ops.NegativeOp) and dtype.is_bool:
        lw.error(op, "cannot negate bool data (TVM rejects it)")
    if isinstance(op, ops.LogicalNotOp) and not dtype.is_bool:
        lw.error(op, f"expected bool data, as TVM does, got {dtype}")
    if isinstance(op, ops.BitwiseNotOp) and dtype.is_float:
        lw.error(op, f"expected integer or bool data, got {dtype}")
    compute = COMPUTE[type(op)]
    result = lw.result_type(op)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        value = compute(lw, xs[0], dtype)
        computed = BOOL if isinstance(op, ops.UnaryCheckOp) else dtype
        return convert(lw, value, computed, result.data_type)

    return elementwise(lw, op, [op.x], body, result)


@lowers(ops.ClipOp)
def lower_clip(lw: Lowerer, op: ops.ClipOp) -> SSAValue:
    dtype = data_type(op.x.type)
    low, high = (data_type(bound.type) for bound in (op.min, op.max))
    result = lw.result_sinfo

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x = xs[0]
        lo, hi = convert(lw, xs[1], low, dtype), convert(lw, xs[2], high, dtype)
        below = select(lw, compare(lw, "lt", x, hi, dtype), x, hi)
        return select(lw, compare(lw, "gt", below, lo, dtype), below, lo)

    return elementwise(lw, op, [op.x, op.min, op.max], body, result)  # pyright: ignore[reportArgumentType]
