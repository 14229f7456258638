"""Kernels of the reductions and scans.

Reductions compute in the data type, as TVM's legalization does: integer sums
wrap, ``mean`` divides integers with truncation toward zero, ``variance`` is
the mean of the squared deviations from the (truncated) mean, and ``std`` of
integers is its square root truncated back to the integer type. ``bool`` sums
and products are ``or`` and ``and``; ``mean``, ``variance`` and ``std`` count
``bool`` elements as the integers 0 and 1. ``max``/``min`` propagate NaN and
give the identity (``-inf``/``inf``, the integer bounds) for empty reductions.
``median`` sorts as ``relax.sort`` does (stably, NaN last) and fails on no
elements.
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
    MedianOp,
    MinOp,
    ProdOp,
    ReductionOp,
    ScanOp,
    StdOp,
    SumOp,
    VarianceOp,
)
from ..types import TupleType
from . import evaluates
from .arithmetic import highest, lowest, truncating_divide
from .common import Kernel, result_dtype, result_form
from .sorting import stable_argsort

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


def median(data: np.ndarray, axis: Axes, keepdims: bool) -> tuple[np.ndarray, np.ndarray]:
    """The lower median over ``axis`` (every axis when None) and its position among
    the reduced elements (row-major), both ``keepdims`` as a reduction's."""
    reduced = tuple(range(data.ndim)) if axis is None else tuple(a % data.ndim for a in axis)
    kept = [a for a in range(data.ndim) if a not in reduced]
    count = math.prod(data.shape[a] for a in reduced)
    if count == 0:
        raise ValueError("the median of no elements")
    rows = np.transpose(data, [*kept, *reduced]).reshape(*(data.shape[a] for a in kept), count)
    position = stable_argsort(rows, -1, descending=False)[..., (count - 1) // 2, None]
    values = np.take_along_axis(rows, position, -1)
    shape = [1 if a in reduced else n for a, n in enumerate(data.shape) if keepdims or a in kept]
    return values.reshape(shape), position.reshape(shape).astype(np.int64)


@evaluates(MedianOp)
def _median(op: MedianOp) -> Kernel:
    axis, keepdims = op.attr("axis"), op.attr("keepdims")
    both = isinstance(op.result.type, TupleType)
    form = result_form(op)

    def apply(data: np.ndarray) -> object:
        values, indices = median(data, axis, keepdims)
        return (values, indices) if both else form(values)

    return apply
