"""Kernels of the data-type conversions."""

from __future__ import annotations

import numpy as np

from ..ops.datatype import AstypeOp, ConvertOp, WrapParamOp
from ..ops.operator import OperatorOp
from . import evaluates
from .common import Kernel


@evaluates(AstypeOp, WrapParamOp)
def _convert(op: OperatorOp) -> Kernel:
    assert isinstance(op, ConvertOp)
    dtype = op.attr("dtype", op.DEFAULT_DTYPE).to_numpy()

    def apply(x: np.ndarray) -> np.ndarray:
        # NumPy casts as TIR does: float to int truncates toward zero, to bool is
        # x != 0 (NaN is true); out-of-range float to int is undefined in both.
        with np.errstate(invalid="ignore", over="ignore"):
            return x.astype(dtype)

    return apply
