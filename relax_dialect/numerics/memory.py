"""Kernels of the memory views: the bytes of the array, read as another data type
and shape."""

from __future__ import annotations

import math

import numpy as np

from ..ops.memory import ViewOp
from ..values import ShapeValue
from . import evaluates
from .common import Kernel


@evaluates(ViewOp)
def _view(op: ViewOp) -> Kernel:
    dtype = op.data_type_attr("dtype")

    def view(x: np.ndarray, shape: ShapeValue | None = None) -> np.ndarray:
        target = np.dtype(x.dtype if dtype is None else dtype.to_numpy())
        dims = x.shape if shape is None else tuple(shape.dims)
        data = np.ascontiguousarray(x).tobytes()
        count = math.prod(dims)
        if count * target.itemsize > len(data):
            raise ValueError(
                f"a view of {count} {target} elements reads past the end of {len(data)} bytes"
            )
        return np.frombuffer(data, target, count).reshape(dims).copy()

    return view
