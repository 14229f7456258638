"""NumPy semantics of the Relax operators, shared by the interpreter and by
passes that evaluate operators (constant folding).

``kernel_for(op)`` returns a function from the operands' run-time values to
the result; it is built once per operation, with its attributes and inferred
result type already resolved.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation

from ..dtype import DataType
from ..ops.base import BindingOp
from ..ops.binary import AddOp, BinaryBroadcastOp
from ..ops.linear_algebra import MatmulOp
from ..types import PrimType, TensorType
from .values import PrimValue

Kernel = Callable[..., object]

BINARY_UFUNCS: dict[type[BinaryBroadcastOp], np.ufunc] = {AddOp: np.add}


def kernel_for(op: Operation) -> Kernel | None:
    """The NumPy implementation of operator ``op``; None if it has none."""
    if isinstance(op, BinaryBroadcastOp):
        return _binary(BINARY_UFUNCS[type(op)], _result_dtype(op))
    if isinstance(op, MatmulOp):
        out = op.out_dtype.data.to_numpy() if op.out_dtype is not None else None
        return _matmul(out)
    return None


def _result_dtype(op: BindingOp) -> np.dtype | None:
    """The result's data type: the declared one (verified), else the inferred one."""
    declared = op.results[0].type
    sinfo = declared if _data_type_known(declared) else op.infer_type()
    return sinfo.data_type.to_numpy() if _data_type_known(sinfo) else None  # pyright: ignore


def _data_type_known(sinfo: object) -> bool:
    return isinstance(sinfo, TensorType | PrimType) and not sinfo.data_type.is_void


def as_array(value: object) -> np.ndarray:
    """A tensor or prim value as an array (a prim value is 0-d)."""
    if isinstance(value, PrimValue):
        return np.array(value.value, dtype=value.dtype.to_numpy())
    assert isinstance(value, np.ndarray)
    return value


def _binary(ufunc: np.ufunc, dtype: np.dtype | None) -> Kernel:
    def apply(lhs: object, rhs: object) -> object:
        result = np.asarray(ufunc(as_array(lhs), as_array(rhs)))
        if dtype is not None and result.dtype != dtype:
            result = result.astype(dtype)
        if isinstance(lhs, PrimValue) and isinstance(rhs, PrimValue):
            return PrimValue(result.item(), DataType.from_numpy(result.dtype))
        return result

    return apply


def _matmul(out_dtype: np.dtype | None) -> Kernel:
    def apply(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
        if out_dtype is not None:
            lhs, rhs = lhs.astype(out_dtype), rhs.astype(out_dtype)
        return np.asarray(np.matmul(lhs, rhs))

    return apply
