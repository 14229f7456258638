"""Kernels of the linear algebra operators."""

from __future__ import annotations

import numpy as np

from ..ops.linear_algebra import EinsumOp, MatmulOp, OuterOp
from ..ops.operator import OperatorOp
from . import evaluates
from .common import Kernel, result_form


@evaluates(MatmulOp)
def _matmul(op: OperatorOp) -> Kernel:
    out_dtype = op.data_type_attr("out_dtype")
    cast = None if out_dtype is None else out_dtype.to_numpy()
    form = result_form(op)

    def apply(lhs: np.ndarray, rhs: np.ndarray) -> object:
        inner = lhs.shape[-1], rhs.shape[-2 if rhs.ndim > 1 else 0]
        if inner[0] != inner[1]:
            raise ValueError(f"inner dimensions {inner[0]} and {inner[1]} differ")
        if cast is not None:
            lhs, rhs = lhs.astype(cast), rhs.astype(cast)
        return form(np.matmul(lhs, rhs))

    return apply


@evaluates(EinsumOp)
def _einsum(op: OperatorOp) -> Kernel:
    assert isinstance(op, EinsumOp)
    equation = op.equation().text()
    form = result_form(op)

    def apply(tensors: tuple[np.ndarray, ...]) -> object:
        return form(np.einsum(equation, *tensors))

    return apply


@evaluates(OuterOp)
def _outer(op: OperatorOp) -> Kernel:
    form = result_form(op)

    def apply(lhs: np.ndarray, rhs: np.ndarray) -> object:
        return form(np.multiply.outer(lhs, rhs))

    return apply
