"""Bindings that create a given run-time value (an array, a shape, a prim value,
a tuple of those): what constant folding replaces a folded binding by, and what
parameter binding puts in place of a parameter."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation, SSAValue

from ..attributes import DenseAttr, PrimExprAttr, ShapeAttr
from ..ops.values import ConstantOp, PrimValueOp, ShapeOp, TupleOp
from ..prim_expr import as_expr
from ..types import PrimType
from ..values import PrimValue, ShapeValue
from .patterns import Replacement


def materialize(value: object, name: str | None = None) -> Replacement | None:
    """Bindings creating a run-time value: a constant for an array, a literal
    for a shape or prim value, a tuple of those (None for other values)."""
    ops: list[Operation] = []
    result = _materialize(value, ops, name)
    return None if result is None else Replacement(result, ops)


def _materialize(value: object, ops: list[Operation], name: str | None) -> SSAValue | None:
    if isinstance(value, np.ndarray):
        try:
            op = ConstantOp(DenseAttr.from_array(value))
        except ValueError:  # a NumPy data type Relax does not have
            return None
    elif isinstance(value, ShapeValue):
        op = ShapeOp(ShapeAttr.from_dims(value.dims))
    elif isinstance(value, PrimValue):
        if isinstance(value.value, float) and value.value != value.value:
            return None  # NaN: a prim type holding it would not equal itself
        expr = as_expr(value.value)
        op = PrimValueOp(PrimExprAttr(expr), PrimType(value.dtype, expr))
    elif isinstance(value, tuple):
        fields = []
        for index, item in enumerate(value):
            field = _materialize(item, ops, None if name is None else f"{name}{index}")
            if field is None:
                return None
            fields.append(field)
        op = TupleOp(fields)
    else:
        return None
    op.results[0].name_hint = name
    ops.append(op)
    return op.results[0]
