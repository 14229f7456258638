"""What the operator kernels share: the kernel type and the conversions between
run-time values and NumPy results."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..dtype import DataType
from ..ops.operator import OperatorOp
from ..types import PrimType, TensorType
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
