"""Elementwise operations: each by the Relax operator its class names
(``RELAX``), or by a rule of its own (``convert``, ``clamp``, ``compare``...)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType as MLIRTensorType
from xdsl.ir import Operation

from ...builder import Expr, call
from ...dtype import DataType
from . import chlo, ops
from .attributes import ComparisonDirection, ComparisonDirectionAttr
from .converter import Converter, converts, dtype_of, refuse, scalar_constant


def element_dtype(op: Operation, index: int = 0, result: bool = False) -> str:
    """The Relax data type of an operand's (or a result's) elements."""
    value = op.results[index] if result else op.operands[index]
    assert isinstance(value.type, MLIRTensorType)
    return dtype_of(value.type.element_type, op)


@converts(*ops.UNARY, *ops.BINARY, *chlo.UNARY)
def elementwise(cv: Converter, op: Operation) -> Sequence[Expr]:
    relax = getattr(op, "RELAX", None)
    if relax is None:
        refuse(op, "has no Relax counterpart")
    dtype = element_dtype(op)
    numbers, booleans = relax if isinstance(relax, tuple) else (relax, relax)
    if op.name == "stablehlo.power" and not dtype.startswith("f"):
        refuse(op, "Relax computes powers of floats only")
    return [call(booleans if dtype == "bool" else numbers, *(cv.value(o) for o in op.operands))]


@converts(ops.BY_NAME["stablehlo.convert"])
def convert(cv: Converter, op: Operation) -> Sequence[Expr]:
    target = element_dtype(op, result=True)
    return [call("relax.astype", cv.value(op.operands[0]), dtype=DataType.parse(target))]


def one(op: Operation) -> Expr:
    return scalar_constant(1, element_dtype(op))


@converts(ops.BY_NAME["stablehlo.exponential_minus_one"])
def exponential_minus_one(cv: Converter, op: Operation) -> Sequence[Expr]:
    return [call("relax.subtract", call("relax.exp", cv.value(op.operands[0])), one(op))]


@converts(ops.BY_NAME["stablehlo.log_plus_one"])
def log_plus_one(cv: Converter, op: Operation) -> Sequence[Expr]:
    return [call("relax.log", call("relax.add", cv.value(op.operands[0]), one(op)))]


@converts(ops.BY_NAME["stablehlo.round_nearest_afz"])
def round_away_from_zero(cv: Converter, op: Operation) -> Sequence[Expr]:
    x = cv.value(op.operands[0])
    half = scalar_constant(0.5, element_dtype(op))
    magnitude = call("relax.floor", call("relax.add", call("relax.abs", x), half))
    return [call("relax.multiply", call("relax.sign", x), magnitude)]


@converts(ops.ClampOp)
def clamp(cv: Converter, op: Operation) -> Sequence[Expr]:
    low, x, high = (cv.value(o) for o in op.operands)
    return [call("relax.minimum", call("relax.maximum", x, low), high)]


@converts(ops.SelectOp)
def select(cv: Converter, op: Operation) -> Sequence[Expr]:
    return [call("relax.where", *(cv.value(o) for o in op.operands))]


COMPARISONS = {
    ComparisonDirection.EQ: "relax.equal",
    ComparisonDirection.NE: "relax.not_equal",
    ComparisonDirection.GE: "relax.greater_equal",
    ComparisonDirection.GT: "relax.greater",
    ComparisonDirection.LE: "relax.less_equal",
    ComparisonDirection.LT: "relax.less",
}


@converts(ops.CompareOp)
def compare(cv: Converter, op: Operation) -> Sequence[Expr]:
    direction = op.properties.get("comparison_direction")
    if not isinstance(direction, ComparisonDirectionAttr):
        refuse(op, "needs a comparison direction (#stablehlo<comparison_direction ...>)")
    return [call(COMPARISONS[direction.data], *(cv.value(o) for o in op.operands))]
