"""Kernels of the indexing operators."""

from __future__ import annotations

import numpy as np

from ..ops.index import DynamicStridedSliceOp, StridedSliceOp, TakeOp
from ..ops.operator import OperatorOp
from ..values import PrimValue
from . import evaluates
from .common import Kernel, as_array, result_form


@evaluates(TakeOp)
def _take(op: OperatorOp) -> Kernel:
    axis = op.attr("axis", 0)
    mode = op.attr("mode")
    form = result_form(op)

    def apply(x: np.ndarray, indices: object) -> object:
        index = as_array(indices).astype(np.int64)
        extent = x.shape[axis]
        outside = (index < 0) | (index >= extent)
        if mode == "wrap":
            index = np.mod(index, extent)
        elif mode == "clip":
            index = np.clip(index, 0, extent - 1)
        elif outside.any():
            if mode == "fast":
                raise IndexError(
                    f"index {index[outside].flat[0]} is out of bounds for axis {axis} "
                    f"of extent {extent}"
                )
            if x.dtype.kind != "f":
                raise ValueError(f"mode nan needs floating-point data, got {x.dtype}")
            index = np.where(outside, 0, index)
        taken = np.take(x, index, axis=axis)
        if mode == "nan":
            first = axis % x.ndim
            mask = outside.reshape((1,) * first + outside.shape + (1,) * (x.ndim - first - 1))
            taken = np.where(mask, np.nan, taken)
        return form(taken)

    return apply


@evaluates(StridedSliceOp)
def _strided_slice(op: OperatorOp) -> Kernel:
    inbound = op.attr("assume_inbound")
    form = result_form(op)

    def apply(
        x: np.ndarray,
        axes: tuple[PrimValue, ...],
        begin: tuple[PrimValue, ...],
        end: tuple[PrimValue, ...],
        strides: tuple[PrimValue, ...] | None = None,
    ) -> object:
        steps = [1] * len(axes) if strides is None else [int(s.value) for s in strides]
        result = x
        for axis, first, last, step in zip(axes, begin, end, steps, strict=True):
            extent = x.shape[int(axis.value)]
            bounds = (int(first.value), int(last.value), step)
            index = _inbound_range(*bounds, extent) if inbound else range(extent)[slice(*bounds)]
            result = np.take(result, np.asarray(index, dtype=np.int64), axis=int(axis.value))
        return form(result)

    return apply


def _inbound_range(begin: int, end: int, step: int, extent: int) -> range:
    """``begin, begin + step, ...`` up to ``end``, which must all lie in the axis."""
    if step == 0:
        raise ValueError("slice step cannot be zero")
    index = range(begin, end, step)
    if index and not (min(index[0], index[-1]) >= 0 and max(index[0], index[-1]) < extent):
        raise IndexError(
            f"slice {begin}:{end}:{step} leaves an axis of extent {extent} (assume_inbound)"
        )
    return index


@evaluates(DynamicStridedSliceOp)
def _dynamic_strided_slice(op: OperatorOp) -> Kernel:
    form = result_form(op)

    def apply(x: np.ndarray, begin: np.ndarray, end: np.ndarray, strides: np.ndarray) -> object:
        if not begin.shape == end.shape == strides.shape == (x.ndim,):
            raise ValueError(f"begin, end and strides need {x.ndim} elements each")
        bounds = zip(begin.tolist(), end.tolist(), strides.tolist(), strict=True)
        return form(x[tuple(slice(*b) for b in bounds)])

    return apply
