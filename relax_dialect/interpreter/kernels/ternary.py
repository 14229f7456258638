"""Kernels of the element-wise ternary operators."""

from __future__ import annotations

import numpy as np

from ...ops.operator import OperatorOp
from ...ops.ternary import EwiseFmaOp
from .common import Kernel, KernelFactory, as_result


def _ewise_fma(op: OperatorOp) -> Kernel:
    def apply(x1: np.ndarray, x2: np.ndarray, x3: np.ndarray) -> object:
        return as_result(op, x1 * x2 + x3)

    return apply


KERNELS: dict[type[OperatorOp], KernelFactory] = {EwiseFmaOp: _ewise_fma}
