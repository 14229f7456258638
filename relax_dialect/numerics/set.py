"""Kernels of the set operators, whose result shapes depend on the data.

They follow TVM's packed functions ``relax.run.unique`` and ``relax.run.nonzero``
(NumPy's ``unique``, NaNs counted as one value, and ``nonzero``).
"""

from __future__ import annotations

import numpy as np

from ..ops.operator import OperatorOp
from ..ops.set import NonzeroOp, UniqueOp
from ..values import PrimValue
from . import evaluates
from .common import Kernel


@evaluates(UniqueOp)
def _unique(op: OperatorOp) -> Kernel:
    def apply(
        x: np.ndarray,
        sorted_: PrimValue,
        return_index: PrimValue,
        return_inverse: PrimValue,
        return_counts: PrimValue,
        axis: PrimValue | None = None,
    ) -> object:
        along = None if axis is None else int(axis.value)
        values, index, inverse, counts = np.unique(
            x, return_index=True, return_inverse=True, return_counts=True, axis=along
        )
        inverse = inverse.reshape(-1)  # 1-D, as ONNX's (NumPy 2 keeps x's shape)
        if not sorted_.value:  # in order of first occurrence
            order = np.argsort(index)
            values, index, counts = np.take(values, order, axis=along), index[order], counts[order]
            inverse = np.argsort(order)[inverse]
        extras = zip(
            (index, inverse, counts), (return_index, return_inverse, return_counts), strict=True
        )
        requested = [extra.astype(np.int64) for extra, flag in extras if flag.value]
        return (values, *requested) if requested else values

    return apply


@evaluates(NonzeroOp)
def _nonzero(op: OperatorOp) -> Kernel:
    def apply(x: np.ndarray) -> object:
        return np.stack(np.atleast_1d(x).nonzero()).astype(np.int64)

    return apply
