"""Kernels of the search operators."""

from __future__ import annotations

import numpy as np

from ..ops.operator import OperatorOp
from ..ops.search import ArgmaxOp, ArgminOp, BucketizeOp, WhereOp
from . import evaluates
from .arithmetic import highest, lowest
from .common import Kernel, result_form


@evaluates(WhereOp)
def _where(op: OperatorOp) -> Kernel:
    form = result_form(op)

    def apply(condition: np.ndarray, x1: np.ndarray, x2: np.ndarray) -> object:
        return form(np.where(condition, x1, x2))

    return apply


def tvm_arg_extreme(data: np.ndarray, axis: int, largest: bool) -> np.ndarray:
    """TVM's ``argmax`` (``largest``) or ``argmin`` along ``axis``, keeping it.

    TVM scans the axis from a sentinel (the data type's lowest finite value for
    argmax, highest for argmin, at index -1) and moves to each element unless
    the current one is better or equal; comparisons with NaN being false, a NaN
    is taken and then left for the next element. Hence: the first extreme
    element after the last NaN (the last NaN if it ends the axis), and -1 when
    there is no NaN and no element beats the sentinel.
    """
    if data.dtype == np.bool_:
        raise TypeError("TVM has no lowest or highest value for bool data")
    length = data.shape[axis]
    if length == 0:
        raise ValueError(f"axis {axis} of the input is empty")
    floating = data.dtype.kind == "f"
    sentinel = lowest(data.dtype) if largest else highest(data.dtype)
    nan = np.isnan(data) if floating else None
    if nan is None or not nan.any():  # NumPy's first extreme, unless the sentinel wins
        found = (data.argmax if largest else data.argmin)(axis, keepdims=True)
        best = np.take_along_axis(data, found, axis)
        return np.where(best > sentinel if largest else best < sentinel, found, -1)
    index = np.arange(length).reshape((length,) + (1,) * (data.ndim - axis - 1))
    has_nan = nan.any(axis, keepdims=True)
    last_nan = np.where(has_nan, length - 1 - np.flip(nan, axis).argmax(axis, keepdims=True), -1)
    after = index > last_nan
    reduce = np.max if largest else np.min
    worst = (-np.inf if largest else np.inf) if floating else sentinel
    best = reduce(data, axis, keepdims=True, where=after, initial=worst)
    candidates = after & (data == best)
    found = np.where(
        candidates.any(axis, keepdims=True), candidates.argmax(axis, keepdims=True), last_nan
    )
    beaten = best > sentinel if largest else best < sentinel
    return np.where(has_nan | beaten, found, -1)


@evaluates(ArgmaxOp, ArgminOp)
def _index_reduction(op: OperatorOp) -> Kernel:
    largest = isinstance(op, ArgmaxOp)
    axis: int | None = op.attr("axis")
    keepdims: bool = op.attr("keepdims")
    form = result_form(op)

    def apply(data: np.ndarray) -> object:
        if axis is None:
            found = tvm_arg_extreme(data.reshape(-1), 0, largest)
            return form(found.reshape((1,) * data.ndim if keepdims else ()))
        found = tvm_arg_extreme(data, axis % data.ndim, largest)
        return form(found if keepdims else found.squeeze(axis))

    return apply


@evaluates(BucketizeOp)
def _bucketize(op: OperatorOp) -> Kernel:
    side = "right" if op.attr("right") else "left"
    form = result_form(op)

    def apply(values: np.ndarray, boundaries: np.ndarray) -> object:
        return form(np.searchsorted(boundaries, values, side=side))

    return apply
