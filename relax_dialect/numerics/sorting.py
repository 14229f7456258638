"""Kernels of the sorting operators.

TVM's CPU kernels (``tvm.contrib.sort``) use ``std::stable_sort`` with ``<`` or
``>``: equal elements keep their input order in both directions, and ``topk``
breaks ties by the lower index. (NaN has no defined place in TVM; here it sorts
last ascending and first descending.)
"""

from __future__ import annotations

import numpy as np

from ..dtype import DataType
from ..ops.operator import OperatorOp
from ..ops.sorting import ArgsortOp, SortOp, TopkOp
from ..prim_expr import IntImm
from ..types import TensorType
from . import evaluates
from .common import Kernel


def stable_argsort(data: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """The indices sorting ``data`` along ``axis``, equal elements in input order."""
    if not descending:
        return np.argsort(data, axis=axis, kind="stable")
    # Sorting the reversed data stably puts equal elements in reverse input order;
    # reversing that ascending order gives the stable descending one.
    reversed_order = np.argsort(np.flip(data, axis), axis=axis, kind="stable")
    return data.shape[axis] - 1 - np.flip(reversed_order, axis)


def _as_indices(order: np.ndarray, data: np.ndarray, dtype: DataType) -> np.ndarray:
    """Indices as ``dtype`` (``void``: the data's type, as in TVM)."""
    return order.astype(data.dtype if dtype.is_void else dtype.to_numpy())


@evaluates(SortOp)
def _sort(op: OperatorOp) -> Kernel:
    axis, descending = op.attr("axis"), op.attr("descending")

    def apply(data: np.ndarray) -> object:
        return np.take_along_axis(data, stable_argsort(data, axis, descending), axis)

    return apply


@evaluates(ArgsortOp)
def _argsort(op: OperatorOp) -> Kernel:
    axis, descending = op.attr("axis"), op.attr("descending")
    dtype = op.attr("dtype")

    def apply(data: np.ndarray) -> object:
        return _as_indices(stable_argsort(data, axis, descending), data, dtype)

    return apply


@evaluates(TopkOp)
def _topk(op: OperatorOp) -> Kernel:
    assert isinstance(op, TopkOp)
    k, axis, largest = op.attr("k"), op.attr("axis"), op.attr("largest")
    ret_type = op.attr("ret_type")
    index_dtype = op.attr("dtype")
    data_type = op.data.type
    # The result type fixes a symbolic axis length to k: it must not be shorter.
    fixed_length = (
        k > 0
        and isinstance(data_type, TensorType)
        and data_type.dims is not None
        and not isinstance(data_type.dims[axis], IntImm)
    )

    def apply(data: np.ndarray) -> object:
        length = data.shape[axis]
        if fixed_length and k > length:
            raise ValueError(
                f"k = {k} exceeds the length {length} of axis {axis} "
                f"(the result type promises {k} elements)"
            )
        count = length if k < 1 else min(k, length)
        indices = np.take(stable_argsort(data, axis, largest), np.arange(count), axis)
        values = np.take_along_axis(data, indices, axis)
        indices = _as_indices(indices, data, index_dtype)
        return {"both": (values, indices), "values": values, "indices": indices}[ret_type]

    return apply
