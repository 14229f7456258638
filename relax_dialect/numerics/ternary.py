"""Kernels of the element-wise ternary operators."""

from __future__ import annotations

import numpy as np

from ..ops.operator import OperatorOp
from ..ops.ternary import EwiseFmaOp
from . import evaluates
from .common import Kernel, result_form


@evaluates(EwiseFmaOp)
def _ewise_fma(op: OperatorOp) -> Kernel:
    form = result_form(op)

    def apply(x1: np.ndarray, x2: np.ndarray, x3: np.ndarray) -> object:
        return form(x1 * x2 + x3)

    return apply
