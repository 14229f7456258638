"""What the operator kernels share: the kernel type, value conversions and the
numerics several families use (TIR's division, erf)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...dtype import DataType
from ...ops.operator import OperatorOp
from ...types import PrimType, TensorType
from ..values import PrimValue

Kernel = Callable[..., object]
"""A function from the operands' run-time values to the result."""

KernelFactory = Callable[[OperatorOp], Kernel]
"""Builds an operation's kernel once, with its attributes resolved."""


def as_array(value: object) -> np.ndarray:
    """A tensor or prim value as an array (a prim value is 0-d)."""
    if isinstance(value, PrimValue):
        return np.array(value.value, dtype=value.dtype.to_numpy())
    assert isinstance(value, np.ndarray)
    return value


def result_dtype(op: OperatorOp) -> np.dtype | None:
    """The result's data type: the declared one (verified), else the inferred one."""
    declared = op.results[0].type
    sinfo = declared if _data_type_known(declared) else op.infer_type()
    return sinfo.data_type.to_numpy() if _data_type_known(sinfo) else None  # pyright: ignore


def _data_type_known(sinfo: object) -> bool:
    return isinstance(sinfo, TensorType | PrimType) and not sinfo.data_type.is_void


def result_form(op: OperatorOp) -> Callable[[object], object]:
    """How a NumPy result becomes the operator's Relax value: an array (never a
    NumPy scalar) of the operator's result data type, or a prim value when the
    result type is one. The data type is resolved once, when the kernel is built."""
    dtype = result_dtype(op)
    prim = isinstance(op.results[0].type, PrimType)

    def form(result: object) -> object:
        array = np.asarray(result)
        if dtype is not None and array.dtype != dtype:
            array = array.astype(dtype)
        if prim:
            return PrimValue(array.item(), DataType.from_numpy(array.dtype))
        return array

    return form


def quiet_kernel(op: OperatorOp, compute: Callable[..., object]) -> Kernel:
    """The kernel returning ``compute(*operands)`` as the operator's result, with
    NaN, infinities and integer wrap-around as results rather than warnings (a
    tuple's fields are returned as arrays)."""
    form = result_form(op)

    def apply(*operands: object) -> object:
        with np.errstate(all="ignore"):
            result = compute(*operands)
        if isinstance(result, tuple):
            return tuple(np.asarray(field) for field in result)
        return form(result)

    return apply


def elementwise(function: Callable[[np.ndarray], np.ndarray]) -> KernelFactory:
    """The kernel factory applying ``function`` to the operand array."""
    return lambda op: quiet_kernel(op, function)


def truncating_divide(dividend: np.ndarray, divisor: np.ndarray | int) -> np.ndarray:
    """TIR's ``div`` in the dividend's data type: true division for floats,
    rounding toward zero for integers."""
    dividend = np.asarray(dividend)
    divisor = np.asarray(divisor).astype(dividend.dtype, copy=False)
    if dividend.dtype.kind == "f":
        return dividend / divisor
    return (dividend - np.fmod(dividend, divisor)) // divisor


# --- erf -----------------------------------------------------------------------------

_TAYLOR_LIMIT = 1.0
"""Below it, erf is its Taylor series; from it on, 1 - erfc by a continued fraction."""

_TAYLOR = np.array(
    [2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(24)]
)
"""erf(a) = a * sum(_TAYLOR[n] * a**(2n)); 24 terms reach float64 precision for a < 1."""

_FRACTION_DEPTH = 200
"""Depth of the continued fraction of erfc, enough for float64 precision from a = 1."""


def erf(x: np.ndarray) -> np.ndarray:
    """The error function in float64 (within 2 ulp of the correctly rounded value)."""
    a = np.abs(np.asarray(x, np.float64))
    near = ~(a >= _TAYLOR_LIMIT)  # NaN included
    out = np.empty_like(a)
    out[near] = a[near] * np.polyval(_TAYLOR[::-1], a[near] * a[near])
    far = a[~near]
    # erfc(a) = exp(-a²) / sqrt(pi) / (a + (1/2) / (a + 1 / (a + (3/2) / (a + ...))))
    fraction = far.copy()
    for k in range(_FRACTION_DEPTH, 0, -1):
        fraction = far + (k / 2) / fraction
    out[~near] = 1 - np.exp(-far * far) / (math.sqrt(math.pi) * fraction)
    return np.copysign(out, x)
