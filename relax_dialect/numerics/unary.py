"""Kernels of the element-wise unary operators, with TVM's numerics.

TVM's CPU code rounds half to even (``nearbyint``), leaves integers unchanged
under ``ceil``/``floor``/``round``/``trunc``, gives ``sign(NaN) = 0``, and
clips with ``max(min(x, hi), lo)`` where ``min``/``max`` are selects on
ordered comparisons (so NaN clips to ``hi``). NaN, infinities and integer
wrap-around are results, not errors.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..ops import unary as ops
from ..ops.operator import OperatorOp
from ..values import PrimValue, describe
from . import evaluates
from .arithmetic import erf
from .common import Kernel, as_array, quiet_kernel, result_form

ArrayFunction = Callable[[np.ndarray], np.ndarray]


def _on_floats(function: ArrayFunction) -> ArrayFunction:
    """``function`` on float arrays; integers and booleans pass unchanged."""
    return lambda x: function(x) if x.dtype.kind == "f" else x


def _sign(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, 1, np.where(x < 0, -1, 0)).astype(x.dtype)


def _logical_not(x: np.ndarray) -> np.ndarray:
    if x.dtype != np.bool_:
        raise TypeError(f"expected a bool tensor, as TVM does, got {describe(x)}")
    return ~x


def _erf(x: np.ndarray) -> np.ndarray:
    """erf rounded to the input's data type (``f16`` through ``f32``, as TVM computes it)."""
    result = erf(x)
    if x.dtype == np.float16:
        result = result.astype(np.float32)
    return result.astype(x.dtype) if x.dtype.kind == "f" else result


# --- clip --------------------------------------------------------------------------


@evaluates(ops.ClipOp)
def _clip(op: OperatorOp) -> Kernel:
    form = result_form(op)

    def apply(x: object, low: PrimValue, high: PrimValue) -> object:
        if not isinstance(x, np.ndarray | PrimValue):
            raise TypeError(f"expected a tensor or prim value, got {describe(x)}")
        data = as_array(x)
        with np.errstate(all="ignore"):
            lo, hi = (as_array(bound).astype(data.dtype) for bound in (low, high))
            below = np.where(data < hi, data, hi)
            return form(np.where(below > lo, below, lo))

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
"""The operators computing a function of their operand alone."""


@evaluates(*FUNCTIONS)
def _function(op: OperatorOp) -> Kernel:
    return quiet_kernel(op, FUNCTIONS[type(op)])  # pyright: ignore[reportArgumentType]
