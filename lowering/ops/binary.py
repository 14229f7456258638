"""Element-wise binary operators → ``linalg.generic`` with broadcasting.

As the reference kernels (TVM's numerics): both operands are converted to
TIR's common data type first (a float beats an integer, a wider type a
narrower one, an integer ``bool``, unsigned signed of equal width), then
combined; ``maximum``/``minimum`` are selects on ordered comparisons (a NaN
second operand wins), ``not_equal`` is ordered, integer ``divide``/``mod``
truncate and ``floor_divide``/``floor_mod`` floor (by zero they give 0, see
``_guarded``), shifts by an amount outside the width give 0 (or the sign, for
a signed right shift: see ``_shift``). Data types TVM cannot
compute an operator on (``power`` on integers, ``logical_and`` on floats) are a
lowering error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.ir import SSAValue

from relax_dialect.dtype import BOOL, DataType
from relax_dialect.ops import binary as ops
from relax_dialect.types import PrimType, TensorType

from ..lowerer import Lowerer
from ..type_conversion import is_unsigned
from ..upstream import RemFOp
from . import lowers
from .common import compare, constant, convert, data_type, elementwise, pick, select

Compute = Callable[[Lowerer, SSAValue, SSAValue, DataType], SSAValue]


def _simple(float_op, int_op, uint_op=None) -> Compute:
    return lambda lw, x, y, dt: lw.make(pick(dt, float_op, int_op, uint_op), x, y)


def _integer(op) -> Compute:
    return lambda lw, x, y, dt: lw.make(op, x, y)


def _floor_divide(lw: Lowerer, x: SSAValue, y: SSAValue, dt: DataType) -> SSAValue:
    if dt.is_float:
        return lw.make(math.FloorOp, lw.make(arith.DivfOp, x, y))
    return lw.make(arith.DivUIOp if is_unsigned(dt) else arith.FloorDivSIOp, x, y)


def _floor_mod(lw: Lowerer, x: SSAValue, y: SSAValue, dt: DataType) -> SSAValue:
    if dt.is_float:
        quotient = lw.make(math.FloorOp, lw.make(arith.DivfOp, x, y))
        return lw.make(arith.SubfOp, x, lw.make(arith.MulfOp, quotient, y))
    if is_unsigned(dt):
        return lw.make(arith.RemUIOp, x, y)
    # the truncated remainder, moved by y when its sign differs from y's
    rem = lw.make(arith.RemSIOp, x, y)
    zero = lw.emit_value(arith.ConstantOp.from_int_and_width(0, x.type))  # pyright: ignore
    differ = lw.make(arith.XOrIOp, compare(lw, "lt", rem, zero, dt), compare(lw, "lt", y, zero, dt))
    adjust = lw.make(arith.AndIOp, differ, compare(lw, "ne", rem, zero, dt))
    return select(lw, adjust, lw.make(arith.AddiOp, rem, y), rem)


def _guarded(divide: Compute, at_minus_one: Callable[[Lowerer, SSAValue, DataType], SSAValue]):
    """``divide`` on integers as the reference kernels (NumPy) compute it: 0 where
    the divisor is 0 and, on signed types, ``at_minus_one(x)`` where it is -1, the
    division itself then taking 1: native code traps on a division by zero and on
    the signed minimum by -1 (x86's ``idiv``)."""

    def compute(lw: Lowerer, x: SSAValue, y: SSAValue, dt: DataType) -> SSAValue:
        if dt.is_float:
            return divide(lw, x, y, dt)
        zero, one = constant(lw, 0, dt), constant(lw, 1, dt)
        by_zero = compare(lw, "eq", y, zero, dt)
        if is_unsigned(dt):
            return select(lw, by_zero, zero, divide(lw, x, select(lw, by_zero, one, y), dt))
        by_minus_one = compare(lw, "eq", y, constant(lw, -1, dt), dt)
        divisor = select(lw, lw.make(arith.OrIOp, by_zero, by_minus_one), one, y)
        quotient = select(lw, by_minus_one, at_minus_one(lw, x, dt), divide(lw, x, divisor, dt))
        return select(lw, by_zero, zero, quotient)

    return compute


def _negated(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    return lw.make(arith.SubiOp, constant(lw, 0, dt), x)


def _zero(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    return constant(lw, 0, dt)


def _shift(
    signed_op, unsigned_op, fill: Callable[[Lowerer, SSAValue, DataType], SSAValue]
) -> Compute:
    """A shift as NumPy computes it: by an amount outside ``[0, width)``,
    ``fill(x)`` (MLIR's shifts give poison there)."""

    def compute(lw: Lowerer, x: SSAValue, y: SSAValue, dt: DataType) -> SSAValue:
        op = unsigned_op if is_unsigned(dt) else signed_op
        if dt.bits == 1:
            return lw.make(op, x, y)
        zero = constant(lw, 0, dt)
        inside = compare(lw, "lt", y, constant(lw, dt.bits, dt), dt)
        if not is_unsigned(dt):
            inside = lw.make(arith.AndIOp, inside, compare(lw, "ge", y, zero, dt))
        shifted = lw.make(op, x, select(lw, inside, y, zero))
        return select(lw, inside, shifted, fill(lw, x, dt))

    return compute


def _sign_fill(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    """What an arithmetic right shift leaves of ``x`` shifted out entirely."""
    if is_unsigned(dt):
        return constant(lw, 0, dt)
    negative = compare(lw, "lt", x, constant(lw, 0, dt), dt)
    return select(lw, negative, constant(lw, -1, dt), constant(lw, 0, dt))


def _select_by(predicate: str) -> Compute:
    return lambda lw, x, y, dt: select(lw, compare(lw, predicate, x, y, dt), x, y)


def _compare(predicate: str) -> Compute:
    return lambda lw, x, y, dt: compare(lw, predicate, x, y, dt)


def _log_add_exp(lw: Lowerer, x: SSAValue, y: SSAValue, dt: DataType) -> SSAValue:
    total = lw.make(arith.AddfOp, lw.make(math.ExpOp, x), lw.make(math.ExpOp, y))
    return lw.make(math.LogOp, total)


NUMERICS: dict[type[ops.BinaryBroadcastOp], Compute] = {
    ops.AddOp: _simple(arith.AddfOp, arith.AddiOp),
    ops.SubtractOp: _simple(arith.SubfOp, arith.SubiOp),
    ops.MultiplyOp: _simple(arith.MulfOp, arith.MuliOp),
    ops.DivideOp: _guarded(_simple(arith.DivfOp, arith.DivSIOp, arith.DivUIOp), _negated),
    ops.FloorDivideOp: _guarded(_floor_divide, _negated),
    ops.ModOp: _guarded(_simple(RemFOp, arith.RemSIOp, arith.RemUIOp), _zero),
    ops.FloorModOp: _guarded(_floor_mod, _zero),
    ops.PowerOp: _simple(math.PowFOp, math.PowFOp),
    ops.MaximumOp: _select_by("gt"),
    ops.MinimumOp: _select_by("lt"),
    ops.Atan2Op: _simple(math.Atan2Op, math.Atan2Op),
    ops.LogAddExpOp: _log_add_exp,
    ops.EqualOp: _compare("eq"),
    ops.NotEqualOp: _compare("ne"),
    ops.LessOp: _compare("lt"),
    ops.LessEqualOp: _compare("le"),
    ops.GreaterOp: _compare("gt"),
    ops.GreaterEqualOp: _compare("ge"),
    ops.LogicalAndOp: _integer(arith.AndIOp),
    ops.LogicalOrOp: _integer(arith.OrIOp),
    ops.LogicalXorOp: _integer(arith.XOrIOp),
    ops.BitwiseAndOp: _integer(arith.AndIOp),
    ops.BitwiseOrOp: _integer(arith.OrIOp),
    ops.BitwiseXorOp: _integer(arith.XOrIOp),
    ops.LeftShiftOp: _shift(arith.ShLIOp, arith.ShLIOp, _zero),
    ops.RightShiftOp: _shift(arith.ShRSIOp, arith.ShRUIOp, _sign_fill),
}


@lowers(*NUMERICS)
def lower_binary(lw: Lowerer, op: ops.BinaryBroadcastOp) -> SSAValue:
    compute = NUMERICS[type(op)]
    lhs, rhs = data_type(op.x1.type), data_type(op.x2.type)
    try:
        common = op.computed_dtype(lhs, rhs)
    except TypeError as error:
        lw.error(op, str(error))
    result = lw.result_sinfo
    assert isinstance(result, TensorType | PrimType)
    computed = BOOL if isinstance(op, ops.ComparisonOp) else common

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x, y = convert(lw, xs[0], lhs, common), convert(lw, xs[1], rhs, common)
        return convert(lw, compute(lw, x, y, common), computed, result.data_type)

    return elementwise(lw, op, [op.x1, op.x2], body, result)
