"""Kernels of the element-wise binary operators."""

from __future__ import annotations

import numpy as np

from ...ops.binary import AddOp, BinaryBroadcastOp
from ...ops.operator import OperatorOp
from .common import Kernel, KernelFactory, as_array, as_result

UFUNCS: dict[type[BinaryBroadcastOp], np.ufunc] = {AddOp: np.add}


def _binary(op: OperatorOp) -> Kernel:
    ufunc = UFUNCS[type(op)]  # pyright: ignore[reportArgumentType]

    def apply(lhs: object, rhs: object) -> object:
        return as_result(op, ufunc(as_array(lhs), as_array(rhs)))

    return apply


KERNELS: dict[type[OperatorOp], KernelFactory] = dict.fromkeys(UFUNCS, _binary)
