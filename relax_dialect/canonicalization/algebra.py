"""Algebraic identities that hold under IEEE arithmetic and TVM's semantics
(``canonicalize``).

Each pattern replaces a binding by one of its operands, and only when what the
operation infers is exactly that operand's StructInfo (``identity``): so a constant
that broadcasts to a larger shape, or promotes the data type (``f16 * f32``),
leaves the binding alone.
None changes a NaN, an infinity or the sign of a zero: ``x + 0.0`` is not ``x``
(``-0.0 + 0.0`` is ``+0.0``) and ``x * 0`` is not ``0`` (``NaN * 0`` is NaN).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException

from ..ops.binary import (
    AddOp,
    BitwiseAndOp,
    BitwiseOrOp,
    DivideOp,
    FloorDivideOp,
    LogicalAndOp,
    LogicalOrOp,
    MaximumOp,
    MinimumOp,
    MultiplyOp,
    SubtractOp,
    data_kind,
)
from ..ops.datatype import AstypeOp
from ..ops.manipulate import BroadcastToOp
from ..ops.operator import OperatorOp
from ..ops.search import WhereOp
from ..ops.unary import BitwiseNotOp, LogicalNotOp, NegativeOp
from ..ops.values import ConstantOp, PrimValueOp
from ..prim_expr import BoolImm, FloatImm, IntImm
from ..rewriting.patterns import BindingPattern, Replacement
from ..types import PrimType, TensorType


def identity(op: OperatorOp, kept: SSAValue | None) -> Replacement | None:
    """``kept`` as the replacement of ``op`` when ``op`` computes ``kept`` itself:
    its inferred StructInfo is ``kept``'s (same data type, provably the same shape)."""
    if kept is None:
        return None
    try:
        inferred = op.infer_type()
    except VerifyException:
        return None
    return Replacement(kept) if inferred == kept.type else None


def splat(value: SSAValue) -> np.ndarray | None:
    """The one element every element of ``value`` equals, as a 0-d array, when
    ``value`` is a constant or a prim value literal."""
    owner = value.owner
    if isinstance(owner, ConstantOp):
        array = owner.value.array
        if array.size == 0:
            return None
        first = array.reshape(-1)[0]
        if not np.all(array == first):
            return None
        if array.dtype.kind == "f" and np.any(np.signbit(array) != np.signbit(first)):
            return None  # -0.0 == 0.0: the signs of zeros must agree too
        return np.asarray(first)
    if isinstance(owner, PrimValueOp):
        expr = owner.value.data
        if isinstance(expr, IntImm | FloatImm | BoolImm):
            return np.asarray(expr.value, dtype=owner.data_type().to_numpy())
    return None


def _is(value: SSAValue, number: float, sign: bool = False) -> bool:
    """Whether ``value`` is the constant ``number`` in every element (a float zero
    with its sign bit equal to ``sign``)."""
    element = splat(value)
    if element is None or element.dtype.kind not in "iuf" or element != number:
        return False
    return element.dtype.kind != "f" or bool(np.signbit(element)) == sign


def _of_kind(value: SSAValue, kinds: str) -> bool:
    """Whether ``value`` is a tensor or prim value of one of the data ``kinds``."""
    sinfo = value.type
    if not isinstance(sinfo, TensorType | PrimType) or sinfo.data_type.is_void:
        return False
    return data_kind(sinfo.data_type) in kinds


def _is_float(value: SSAValue) -> bool | None:
    element = splat(value)
    return None if element is None else element.dtype.kind == "f"


def _other(op: MultiplyOp, unit: float) -> SSAValue | None:
    """The operand of a commutative ``op`` whose other operand is ``unit``."""
    if _is(op.x2, unit):
        return op.x1
    if _is(op.x1, unit):
        return op.x2
    return None


class MultiplyByOne(BindingPattern):
    """``x * 1`` and ``1 * x`` are ``x``.

    IEEE: ``x * 1.0`` is ``x`` for every ``x``, NaN, infinities and ``-0.0``
    included; integers: exact."""

    def replacement(self, op: MultiplyOp) -> Replacement | None:
        return identity(op, _other(op, 1))


class AddZero(BindingPattern):
    """``x + 0`` and ``0 + x`` are ``x`` (for floats, with ``-0.0`` only).

    IEEE: ``+0.0 + -0.0`` is ``+0.0`` and ``-0.0 + -0.0`` is ``-0.0``, but
    ``-0.0 + +0.0`` is ``+0.0``: a float ``+0.0`` is no identity."""

    def replacement(self, op: AddOp) -> Replacement | None:
        for zero, kept in ((op.x2, op.x1), (op.x1, op.x2)):
            if _is(zero, 0, sign=bool(_is_float(zero))):
                return identity(op, kept)
        return None


class SubtractZero(BindingPattern):
    """``x - 0`` is ``x`` (for floats, with ``+0.0`` only).

    IEEE: ``x - +0.0`` is ``x`` for every ``x``, ``-0.0`` included; ``x - -0.0``
    is ``x + +0.0``, which is not."""

    def replacement(self, op: SubtractOp) -> Replacement | None:
        return identity(op, op.x1) if _is(op.x2, 0) else None


class DivideByOne(BindingPattern):
    """``x / 1`` is ``x`` (IEEE: exact; integers: TVM's truncating division by 1)."""

    def replacement(self, op: DivideOp) -> Replacement | None:
        return identity(op, op.x1) if _is(op.x2, 1) else None


class FloorDivideIntegerByOne(BindingPattern):
    """``floor_divide(x, 1)`` is ``x`` for integers (for floats it is ``floor(x)``)."""

    def replacement(self, op: FloorDivideOp) -> Replacement | None:
        integer = _is_float(op.x2) is False
        return identity(op, op.x1) if integer and _is(op.x2, 1) else None


class Involution(BindingPattern):
    """An operator that undoes itself, applied twice, is its operand.

    ``negative`` (IEEE negation flips the sign bit, twice restores it, NaN's too;
    integer negation wraps back), ``logical_not`` and ``bitwise_not``; only on the
    data TVM computes them on, so that a program that fails at run time still does."""

    KINDS: ClassVar[dict[type[OperatorOp], str]] = {
        NegativeOp: "iuf",
        LogicalNotOp: "b",
        BitwiseNotOp: "biu",
    }
    """The data kinds (``ops.binary.data_kind``) each operator is computed on."""

    def replacement(self, op: NegativeOp | LogicalNotOp | BitwiseNotOp) -> Replacement | None:
        inner = op.x.owner
        if type(inner) is not type(op) or not _of_kind(op.x, self.KINDS[type(op)]):
            return None
        return identity(op, inner.x)  # pyright: ignore[reportAttributeAccessIssue]


class SameOperands(BindingPattern):
    """An idempotent operator of one operand twice is that operand.

    ``maximum`` (TVM's is ``x > x ? x : x``: ``x``, NaN included), ``minimum``,
    ``bitwise_and``/``or``, ``logical_and``/``or``; only on the data TVM computes
    them on (``DATA_KINDS``), so that a program that fails at run time still does."""

    def replacement(
        self,
        op: MaximumOp | MinimumOp | BitwiseAndOp | BitwiseOrOp | LogicalAndOp | LogicalOrOp,
    ) -> Replacement | None:
        if op.x1 is not op.x2 or not _of_kind(op.x1, op.DATA_KINDS):
            return None
        return identity(op, op.x1)


class SelectBetweenSame(BindingPattern):
    """``where(c, x, x)`` is ``x``."""

    def replacement(self, op: WhereOp) -> Replacement | None:
        return identity(op, op.x1) if op.x1 is op.x2 else None


class AstypeToOwnType(BindingPattern):
    """``astype`` to the data type ``x`` already has is ``x``."""

    def replacement(self, op: AstypeOp) -> Replacement | None:
        return identity(op, op.x)


class BroadcastToOwnShape(BindingPattern):
    """``broadcast_to`` the shape ``x`` already has is ``x``."""

    def replacement(self, op: BroadcastToOp) -> Replacement | None:
        return identity(op, op.x)


PATTERNS: tuple[BindingPattern, ...] = (
    MultiplyByOne(),
    AddZero(),
    SubtractZero(),
    DivideByOne(),
    FloorDivideIntegerByOne(),
    Involution(),
    SameOperands(),
    SelectBetweenSame(),
    AstypeToOwnType(),
    BroadcastToOwnShape(),
)
