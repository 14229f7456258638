"""math on NumPy scalars and arrays, every operation of xDSL's math dialect.

Results keep the operand's dtype (float16 stays float16); IEEE special values follow
NumPy (``log(0)`` is ``-inf``, ``sqrt(-1)`` NaN).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import math
from xdsl.interpreter import InterpreterFunctions, register_impls

from relax_dialect.numerics.arithmetic import erf

from .core import Kernel, KernelTable
from .values import as_unsigned, dtype_of

KERNELS = KernelTable()

_UFUNCS = {
    # These keep the dtype of their operands.
    math.AbsFOp: np.abs,
    math.AbsIOp: np.abs,
    math.AcosOp: np.arccos,
    math.AcoshOp: np.arccosh,
    math.AsinOp: np.arcsin,
    math.AsinhOp: np.arcsinh,
    math.AtanOp: np.arctan,
    math.AtanhOp: np.arctanh,
    math.Atan2Op: np.arctan2,
    math.CbrtOp: np.cbrt,
    math.CeilOp: np.ceil,
    math.CopySignOp: np.copysign,
    math.CosOp: np.cos,
    math.CoshOp: np.cosh,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.ExpOp: np.exp,
    math.FloorOp: np.floor,
    math.Log10Op: np.log10,
    math.Log1pOp: np.log1p,
    math.Log2Op: np.log2,
    math.LogOp: np.log,
    math.PowFOp: np.power,
    math.RoundEvenOp: np.rint,
    math.SinOp: np.sin,
    math.SinhOp: np.sinh,
    math.SqrtOp: np.sqrt,
    math.TanOp: np.tan,
    math.TanhOp: np.tanh,
    math.TruncOp: np.trunc,
}


def _in_result_dtype(function: Any) -> Any:
    """A factory of function with its result converted to the op's result dtype."""

    def factory(op: Any) -> Kernel:
        dtype = dtype_of(op.results[0].type)
        return lambda *operands: np.asarray(function(*operands)).astype(dtype)[()]

    return factory


for _op_type, _ufunc in _UFUNCS.items():
    KERNELS.kernel(_op_type)(lambda op, ufunc=_ufunc: ufunc)


def _rsqrt(value: Any) -> Any:
    return np.reciprocal(np.sqrt(value))


def _round(value: Any) -> Any:
    """Rounding half away from zero."""
    truncated = np.trunc(value)
    return truncated + np.where(np.abs(value - truncated) >= 0.5, np.sign(value), 0)


def _fma(a: Any, b: Any, c: Any) -> Any:
    return a * b + c


def _fpowi(base: Any, exponent: Any) -> Any:
    return np.power(base, np.asarray(exponent).astype(np.asarray(base).dtype))


def _ipowi(base: Any, exponent: Any) -> Any:
    """Integer power, wrapping; a negative exponent gives 1/base truncated."""
    power = np.power(base, np.maximum(exponent, 0))
    odd = (exponent % 2) != 0
    negative = np.where(base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0))
    return np.where(exponent < 0, negative, power)


def _bit_length(value: Any) -> Any:
    """The number of significant bits of each unsigned integer."""
    remaining = np.asarray(value, np.uint64)
    length = np.zeros(remaining.shape, np.int64)
    for shift in (32, 16, 8, 4, 2, 1):
        large = remaining >= np.uint64(1 << shift)
        length += large * shift
        remaining = np.where(large, remaining >> np.uint64(shift), remaining)
    return length + (remaining > 0)


def _ctlz(value: Any) -> Any:
    return value.dtype.itemsize * 8 - _bit_length(as_unsigned(value))


def _cttz(value: Any) -> Any:
    bits = as_unsigned(value)
    lowest = bits & (~bits + np.asarray(1, bits.dtype))
    return np.where(bits == 0, value.dtype.itemsize * 8, _bit_length(lowest) - 1)


for _op_type, _function in {
    math.RsqrtOp: _rsqrt,
    math.RoundOp: _round,
    math.FmaOp: _fma,
    math.FPowIOp: _fpowi,
    math.IPowIOp: _ipowi,
    math.CountLeadingZerosOp: _ctlz,
    math.CountTrailingZerosOp: _cttz,
    math.ErfOp: erf,
    math.CtPopOp: np.bitwise_count,
}.items():
    KERNELS.kernel(_op_type)(_in_result_dtype(_function))


@register_impls
@KERNELS.implement
class MathFunctions(InterpreterFunctions):
    """math on NumPy scalars and arrays, for xDSL's interpreter."""
