"""The arithmetic of TVM that kernels of several families and the lowering share:
TIR's division, the error function, the lowest and highest values of a data type."""

from __future__ import annotations

import math

import numpy as np


def lowest(dtype: np.dtype, finite: bool = True) -> float | int | bool:
    """The smallest value of ``dtype``: TVM's ``min_value`` (finite for floats), or,
    not ``finite``, the identity of ``max`` (``-inf`` for floats)."""
    if dtype.kind == "f":
        return float(np.finfo(dtype).min) if finite else -math.inf
    if dtype.kind == "b":
        return False
    return int(np.iinfo(dtype).min)


def highest(dtype: np.dtype, finite: bool = True) -> float | int | bool:
    """The largest value of ``dtype``: TVM's ``max_value`` (finite for floats), or,
    not ``finite``, the identity of ``min`` (``inf`` for floats)."""
    if dtype.kind == "f":
        return float(np.finfo(dtype).max) if finite else math.inf
    if dtype.kind == "b":
        return True
    return int(np.iinfo(dtype).max)


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
