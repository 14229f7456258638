"""Integer tensors whose values are known while converting: the shape
computations ``jax.export`` writes for symbolic dimensions.

``get_dimension_size %x, dim = 0`` is the symbolic dimension ``b`` of ``x``;
constants, ``convert``, ``reshape``, ``broadcast_in_dim``, ``concatenate``,
``slice`` and integer arithmetic of known values are known in turn, so that the
shape operand of a ``dynamic_broadcast_in_dim`` or a ``dynamic_reshape`` is a
list of ``PrimExpr`` (``[b, 10]``) rather than a run-time tensor."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation

from ...prim_expr import IntImm, PrimExpr, call
from ...prim_expr_simplify import simplify
from . import ops
from .syntax import int_list

MAX_ELEMENTS = 64
"""Larger integer tensors are not shape computations: they are left to the
tensors' own conversion."""


@dataclass(frozen=True)
class Known:
    """An integer tensor's shape and its values, row-major."""

    shape: tuple[int, ...]
    values: tuple[PrimExpr, ...]

    def ints(self) -> tuple[int, ...] | None:
        """The values when none is symbolic."""
        if all(isinstance(v, IntImm) for v in self.values):
            return tuple(v.value for v in self.values)  # type: ignore[attr-defined]
        return None

    def scalar(self) -> PrimExpr:
        assert len(self.values) == 1
        return self.values[0]


def known_shape(result_type: Attribute) -> tuple[int, ...] | None:
    """The static shape of a small integer tensor type; None for others."""
    if not isinstance(result_type, TensorType) or not isinstance(
        result_type.element_type, IntegerType
    ):
        return None
    shape = tuple(result_type.get_shape())
    if any(d < 0 for d in shape) or prod(shape) > MAX_ELEMENTS:
        return None
    return shape


def constant(attribute: DenseIntOrFPElementsAttr) -> Known | None:
    shape = known_shape(attribute.type)
    if shape is None:
        return None
    values = [int(v) for v in attribute.get_values()]
    if len(values) == 1:
        values *= prod(shape)
    return Known(shape, tuple(IntImm(v) for v in values))


ARITHMETIC: dict[str, Callable[[PrimExpr, PrimExpr], PrimExpr]] = {
    "stablehlo.add": lambda a, b: a + b,
    "stablehlo.subtract": lambda a, b: a - b,
    "stablehlo.multiply": lambda a, b: a * b,
    "stablehlo.maximum": lambda a, b: call("max", a, b),
    "stablehlo.minimum": lambda a, b: call("min", a, b),
}
"""Integer arithmetic whose result on dimensions (never negative) is exact;
``divide`` truncates, which is ``floordiv`` on dimensions."""


def evaluate(
    op: Operation, operands: Sequence[Known | None], dimension: DimensionOf
) -> Known | None:
    """The known value of ``op``'s single result, or None."""
    if len(op.results) != 1:
        return None
    shape = known_shape(op.results[0].type)
    if shape is None:
        return None
    if isinstance(op, ops.ConstantOp):
        value = op.properties["value"]
        return constant(value) if isinstance(value, DenseIntOrFPElementsAttr) else None
    if isinstance(op, ops.GetDimensionSizeOp):
        size = dimension(op)
        return None if size is None else Known(shape, (size,))
    if any(o is None for o in operands):
        return None
    known = [o for o in operands if o is not None]
    values = _values(op, known, shape)
    if values is None:
        return None
    return Known(shape, tuple(simplify(v) for v in values))


DimensionOf = Callable[[ops.GetDimensionSizeOp], PrimExpr | None]
"""The size ``get_dimension_size`` reads (None when it is not known)."""


def _values(op: Operation, known: list[Known], shape: tuple[int, ...]) -> Sequence[PrimExpr] | None:
    count = prod(shape)
    if isinstance(op, ops.UnaryOp) and op.name == "stablehlo.convert":
        return known[0].values
    if isinstance(op, ops.ReshapeOp | ops.OptimizationBarrierOp):
        return known[0].values
    if isinstance(op, ops.BroadcastInDimOp) and len(known[0].values) == 1:
        return known[0].values * count
    if isinstance(op, ops.ConcatenateOp) and len(shape) == 1:
        return [v for k in known for v in k.values]
    if isinstance(op, ops.SliceOp) and len(shape) == 1:
        start, limit, stride = (int_list(op.properties.get(n)) for n in ops.SLICE_PROPERTIES)
        if start is None or limit is None or stride is None:
            return None
        return known[0].values[start[0] : limit[0] : stride[0]]
    if isinstance(op, ops.ClampOp):
        low, x, high = (_broadcast(k, count) for k in known)
        return [call("min", call("max", v, lo), hi) for lo, v, hi in zip(low, x, high, strict=True)]
    if op.name in ARITHMETIC or op.name == "stablehlo.divide":
        lhs, rhs = (_broadcast(k, count) for k in known)
        if op.name == "stablehlo.divide":
            return [a // b for a, b in zip(lhs, rhs, strict=True)]
        return [ARITHMETIC[op.name](a, b) for a, b in zip(lhs, rhs, strict=True)]
    return None


def _broadcast(known: Known, count: int) -> tuple[PrimExpr, ...]:
    return known.values * count if len(known.values) == 1 else known.values
