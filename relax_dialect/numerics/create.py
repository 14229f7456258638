"""Kernels of the tensor creation operators."""

from __future__ import annotations

import numpy as np

from ..ops.create import (
    ArangeOp,
    EyeLikeOp,
    EyeOp,
    FullLikeOp,
    FullOp,
    OnesLikeOp,
    OnesOp,
    TrilOp,
    TriuOp,
    ZerosLikeOp,
    ZerosOp,
    arange_length,
)
from ..ops.operator import OperatorOp
from ..prim_expr import FloatImm, IntImm
from ..values import PrimValue, ShapeValue
from . import evaluates
from .common import Kernel, as_array, result_dtype, result_form


@evaluates(ZerosOp, OnesOp)
def _shape_fill(op: OperatorOp) -> Kernel:
    fill = type(op).FILL  # pyright: ignore[reportAttributeAccessIssue]
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(shape: ShapeValue) -> object:
        return form(np.full(shape.dims, fill, dtype=dtype))

    return apply


@evaluates(ZerosLikeOp, OnesLikeOp)
def _like_fill(op: OperatorOp) -> Kernel:
    fill = type(op).FILL  # pyright: ignore[reportAttributeAccessIssue]
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(x: np.ndarray) -> object:
        return form(np.full_like(x, fill, dtype=dtype))

    return apply


@evaluates(FullOp)
def _full(op: OperatorOp) -> Kernel:
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(shape: ShapeValue, fill_value: np.ndarray) -> object:
        return form(np.full(shape.dims, fill_value, dtype=dtype))

    return apply


@evaluates(FullLikeOp)
def _full_like(op: OperatorOp) -> Kernel:
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(x: np.ndarray, fill_value: np.ndarray) -> object:
        return form(np.full_like(x, fill_value, dtype=dtype))

    return apply


@evaluates(EyeOp)
def _eye(op: OperatorOp) -> Kernel:
    form = result_form(op)

    def apply(n: PrimValue, m: PrimValue, k: PrimValue) -> object:
        return form(np.eye(int(n.value), int(m.value), int(k.value)))

    return apply


@evaluates(EyeLikeOp)
def _eye_like(op: OperatorOp) -> Kernel:
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(x: np.ndarray, k: PrimValue) -> object:
        if x.ndim != 2:
            raise ValueError(f"the data must be 2-D, got {x.ndim} dimensions")
        rows, cols = x.shape
        return form(np.eye(rows, cols, int(k.value), dtype=x.dtype if dtype is None else dtype))

    return apply


@evaluates(ArangeOp)
def _arange(op: OperatorOp) -> Kernel:
    # TVM folds a range of constants with NumPy and computes others as start + step * i.
    folded = all(isinstance(v.type.known_value, IntImm | FloatImm) for v in op.operands)  # pyright: ignore
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(start: PrimValue, end: PrimValue, step: PrimValue) -> object:
        if step.value == 0:
            raise ValueError("the step is zero")
        if all(v.dtype.code == "int" for v in (start, end, step)):
            length = -((int(start.value) - int(end.value)) // int(step.value))
        else:
            length = arange_length(end.value - start.value, step.value)
        if length < 0:
            raise ValueError(
                f"the range from {start.value} to {end.value} with step {step.value} has "
                f"negative length {length}"
            )
        if folded:
            return form(np.arange(start.value, end.value, step.value, dtype=dtype))
        first, increment = as_array(start), as_array(step)
        floats = [a.dtype for a in (first, increment) if a.dtype.kind == "f"]
        compute = max(floats, key=lambda d: d.itemsize) if floats else np.dtype(np.int64)
        count = np.arange(length, dtype=compute)
        return form(first.astype(compute) + increment.astype(compute) * count)

    return apply


@evaluates(TrilOp, TriuOp)
def _triangular(op: OperatorOp) -> Kernel:
    triangle = np.triu if isinstance(op, TriuOp) else np.tril
    form = result_form(op)

    def apply(x: np.ndarray, k: PrimValue) -> object:
        return form(triangle(x, int(k.value)))

    return apply
