"""Kernels of the reductions and scans.

Reductions compute in the data type, as TVM's legalization does: integer sums
wrap, ``mean`` divides integers with truncation toward zero, ``variance`` is
the mean of the squared deviations from the (truncated) mean, and ``std`` of
integers is its square root truncated back to the integer type. ``bool`` sums
and products are ``or`` and ``and``; ``mean``, ``variance`` and ``std`` count
``bool`` elements as the integers 0 and 1. ``max``/``min`` propagate NaN and
give the identity (``-inf``/``inf``, the integer bounds) for empty reductions.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..ops.operator import OperatorOp
from ..ops.statistical import (
    CumprodOp,
    CumsumOp,
    MaxOp,
    MeanOp,
    MinOp,
    ProdOp,
    ReductionOp,
    ScanOp,
    StdOp,
    SumOp,
    VarianceOp,
)
from . import evaluates
from .arithmetic import highest, lowest, truncating_divide
from .common import Kernel, result_dtype, result_form

Axes = tuple[int, ...] | None
Reduction = Callable[[np.ndarray, Axes, bool], np.ndarray]


def _sum(data: np.ndarray, axis: Axes, keepdims: bool) -> np.ndarray:
    return np.sum(data, axis=axis, keepdims=keepdims, dtype=data.dtype)


def _prod(data: np.ndarray, axis: Axes, keepdims: bool) -> np.ndarray:
    return np.prod(data, axis=axis, keepdims=keepdims, dtype=data.dtype)


def _max(data: np.ndarray, axis: Axes, keepdims: bool) -> np.ndarray:
    return np.max(data, axis=axis, keepdims=keepdims, initial=lowest(data.dtype, finite=False))


def _min(data: np.ndarray, axis: Axes, keepdims: bool) -> np.ndarray:
    return np.min(data, axis=axis, keepdims=keepdims, initial=highest(data.dtype, finite=False))


def _mean(data: np.ndarray, axis: Axes, keepdims: bool) -> np.ndarray:
    data = _as_numbers(data)
    axes = range(data.ndim) if axis is None else axis
    count = math.prod(data.shape[a] for a in axes)
    total = _sum(data, axis, keepdims)
    with np.errstate(divide="ignore", invalid="ignore"):
        return truncating_divide(total, count)


def _variance(data: np.ndarray, axis: Axes, keepdims: bool) -> np.ndarray:
    deviation = _as_numbers(data) - _mean(data, axis, True)
    return _mean(deviation * deviation, axis, keepdims)


def _std(data: np.ndarray, axis: Axes, keepdims: bool) -> np.ndarray:
    return np.sqrt(_variance(data, axis, keepdims))


def _as_numbers(data: np.ndarray) -> np.ndarray:
    """``bool`` data as the integers 0 and 1 (NumPy has no ``bool`` subtraction)."""
    return data.astype(np.int64) if data.dtype == np.bool_ else data


REDUCTIONS: dict[type[ReductionOp], Reduction] = {
    SumOp: _sum,
    ProdOp: _prod,
    MaxOp: _max,
    MinOp: _min,
    MeanOp: _mean,
    VarianceOp: _variance,
    StdOp: _std,
}


@evaluates(*REDUCTIONS)
def _reduction(op: OperatorOp) -> Kernel:
    reduction = REDUCTIONS[type(op)]  # pyright: ignore[reportArgumentType]
    axis, keepdims = op.attr("axis"), op.attr("keepdims")
    form = result_form(op)

    def apply(data: np.ndarray) -> object:
        return form(reduction(data, axis, keepdims))

    return apply


ACCUMULATIONS: dict[type[ReductionOp], tuple[np.ufunc, int]] = {
    SumOp: (np.add, 0),
    ProdOp: (np.multiply, 1),
}
"""The operation and identity (the first element of an exclusive scan) of each
reduction a scan accumulates (``ScanOp.REDUCTION``)."""


@evaluates(CumsumOp, CumprodOp)
def _scan(op: ScanOp) -> Kernel:
    ufunc, identity = ACCUMULATIONS[op.REDUCTION]
    axis, exclusive = op.attr("axis"), op.attr("exclusive")
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(data: np.ndarray) -> object:
        values = data if dtype is None else data.astype(dtype)
        along = 0 if axis is None else axis
        if axis is None:
            values = values.reshape(-1)
        result = ufunc.accumulate(values, axis=along, dtype=values.dtype)
        if exclusive:
            result = np.roll(result, 1, axis=along)
            first = [slice(None)] * result.ndim
            first[along] = slice(0, 1)
            result[tuple(first)] = identity
        return form(result)

    return apply
