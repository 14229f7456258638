"""Kernels of the element-wise unary operators, with TVM's numerics.

TVM's CPU code rounds half to even (``nearbyint``), leaves integers unchanged
under ``ceil``/``floor``/``round``/``trunc``, gives ``sign(NaN) = 0``, and
clips with ``max(min(x, hi), lo)`` where ``min``/``max`` are selects on
ordered comparisons (so NaN clips to ``hi``). NaN, infinities and integer
wrap-around are results, not errors.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ...ops import unary as ops
from ...ops.operator import OperatorOp
from ..values import PrimValue, describe
from .common import Kernel, KernelFactory, as_array, as_result

ArrayFunction = Callable[[np.ndarray], np.ndarray]


def _elementwise(function: ArrayFunction) -> KernelFactory:
    """The kernel factory applying ``function`` to the input array."""

    def factory(op: OperatorOp) -> Kernel:
        def apply(x: np.ndarray) -> object:
            with np.errstate(all="ignore"):
                return as_result(op, function(x))

        return apply

    return factory


def _on_floats(function: ArrayFunction) -> ArrayFunction:
    """``function`` on float arrays; integers and booleans pass unchanged."""
    return lambda x: function(x) if x.dtype.kind == "f" else x


def _sign(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, 1, np.where(x < 0, -1, 0)).astype(x.dtype)


def _logical_not(x: np.ndarray) -> np.ndarray:
    if x.dtype != np.bool_:
        raise TypeError(f"expected a bool tensor, as TVM does, got {describe(x)}")
    return ~x


# --- erf -------------------------------------------------------------------------

_TAYLOR_LIMIT = 1.0
"""Below it, erf is its Taylor series; from it on, 1 - erfc by a continued fraction."""

_TAYLOR = np.array(
    [2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(24)]
)
"""erf(a) = a * sum(_TAYLOR[n] * a**(2n)); 24 terms reach float64 precision for a < 1."""

_FRACTION_DEPTH = 200
"""Depth of the continued fraction of erfc, enough for float64 precision from a = 1."""


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to float64 precision (within 2 ulp), rounded to the input's data type
    (``f16`` through ``f32``, as TVM computes it)."""
    a = np.abs(x.astype(np.float64))
    near = ~(a >= _TAYLOR_LIMIT)  # NaN included
    out = np.empty_like(a)
    out[near] = a[near] * np.polyval(_TAYLOR[::-1], a[near] * a[near])
    far = a[~near]
    # erfc(a) = exp(-a²) / sqrt(pi) / (a + (1/2) / (a + 1 / (a + (3/2) / (a + ...))))
    fraction = far.copy()
    for k in range(_FRACTION_DEPTH, 0, -1):
        fraction = far + (k / 2) / fraction
    out[~near] = 1 - np.exp(-far * far) / (math.sqrt(math.pi) * fraction)
    result = np.copysign(out, x)
    if x.dtype == np.float16:
        result = result.astype(np.float32)
    return result.astype(x.dtype) if x.dtype.kind == "f" else result


# --- clip --------------------------------------------------------------------------


def _clip(op: OperatorOp) -> Kernel:
    def apply(x: object, low: PrimValue, high: PrimValue) -> object:
        if not isinstance(x, np.ndarray | PrimValue):
            raise TypeError(f"expected a tensor or prim value, got {describe(x)}")
        data = as_array(x)
        with np.errstate(all="ignore"):
            lo, hi = (as_array(bound).astype(data.dtype) for bound in (low, high))
            below = np.where(data < hi, data, hi)
            return as_result(op, np.where(below > lo, below, lo))

    return apply


FUNCTIONS: dict[type[OperatorOp], ArrayFunction] = {
    ops.AbsOp: np.abs,
    ops.AcosOp: np.arccos,
    ops.AcoshOp: np.arccosh,
    ops.AsinOp: np.arcsin,
    ops.AsinhOp: np.arcsinh,
    ops.AtanOp: np.arctan,
    ops.AtanhOp: np.arctanh,
    ops.BitwiseNotOp: np.invert,
    ops.CeilOp: _on_floats(np.ceil),
    ops.CosOp: np.cos,
    ops.CoshOp: np.cosh,
    ops.ErfOp: _erf,
    ops.ExpOp: np.exp,
    ops.FloorOp: _on_floats(np.floor),
    ops.IsFiniteOp: np.isfinite,
    ops.IsInfOp: np.isinf,
    ops.IsNanOp: np.isnan,
    ops.LogOp: np.log,
    ops.LogicalNotOp: _logical_not,
    ops.NegativeOp: np.negative,
    ops.RoundOp: _on_floats(np.rint),
    ops.RsqrtOp: lambda x: 1 / np.sqrt(x),
    ops.SigmoidOp: lambda x: 1 / (1 + np.exp(-x)),
    ops.SignOp: _sign,
    ops.SinOp: np.sin,
    ops.SinhOp: np.sinh,
    ops.SqrtOp: np.sqrt,
    ops.SquareOp: np.square,
    ops.TanOp: np.tan,
    ops.TanhOp: np.tanh,
    ops.TruncOp: _on_floats(np.trunc),
}

KERNELS: dict[type[OperatorOp], KernelFactory] = {
    **{op: _elementwise(function) for op, function in FUNCTIONS.items()},
    ops.ClipOp: _clip,
}
