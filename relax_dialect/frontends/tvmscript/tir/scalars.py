"""TIR scalars as typed SSA values: constants, casts, ``index`` conversions and
TVM's rule for the type of a binary operation (``BinaryOpMatchTypes``).

A TIR value keeps its TIR data type next to its SSA value: MLIR integers are
signless, and the data type says whether ``int8`` or ``uint8`` arithmetic,
comparison and extension apply. ``bool`` is ``i1``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from math import isfinite
from typing import TypeVar

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ....builtin_types import element_type
from ....dtype import BOOL, DataType

OpT = TypeVar("OpT", bound=Operation)

INT32 = DataType("int", 32)
INT64 = DataType("int", 64)
FLOAT32 = DataType("float", 32)


class TIRTypeError(Exception):
    """Operands whose data types an operation does not take; the message says which."""


@dataclass(frozen=True)
class Scalar:
    """A TIR value: its SSA value and its TIR data type."""

    value: SSAValue
    dtype: DataType


def mlir_type(dtype: DataType) -> Attribute:
    """The MLIR type of scalars of ``dtype`` (``TIRTypeError`` when it has none)."""
    if dtype.lanes != 1:
        raise TIRTypeError(f"vector data type {dtype.tvm_name()} is outside the TIR subset")
    try:
        return element_type(dtype)
    except ValueError:
        raise TIRTypeError(f"data type {dtype.tvm_name()} has no MLIR element type") from None


def is_signed(dtype: DataType) -> bool:
    return dtype.code == "int"


class ScalarBuilder:
    """Appends operations to a block, and builds TIR scalars with them."""

    def __init__(self, block: Block):
        self.block = block

    def emit(self, op: OpT) -> OpT:
        """Append ``op`` to the current block."""
        self.block.add_op(op)
        return op

    def value(self, op: Operation) -> SSAValue:
        """Append ``op`` and return its only result."""
        return self.emit(op).results[0]

    @contextmanager
    def into(self, block: Block) -> Iterator[Block]:
        """Append to ``block`` inside the ``with``."""
        outer, self.block = self.block, block
        try:
            yield block
        finally:
            self.block = outer

    def constant(self, number: int | float | bool, dtype: DataType) -> Scalar:
        """``number`` as a constant of ``dtype``."""
        kind = mlir_type(dtype)
        if dtype.is_float:
            with np.errstate(over="ignore"):  # rounded to the type, as a cast: inf if too large
                rounded = float(np.array(number, dtype=dtype.to_numpy()))
            attr = FloatAttr(rounded, kind)  # pyright: ignore[reportArgumentType]
        else:
            bits = dtype.bits
            wrapped = int(number) & ((1 << bits) - 1)
            if bits > 1 and wrapped >= 1 << (bits - 1):
                wrapped -= 1 << bits
            attr = IntegerAttr(wrapped, kind)
        return Scalar(self.value(arith.ConstantOp(attr)), dtype)

    def literal(self, number: int | float | bool) -> Scalar:
        """A Python number as TVM types it: ``bool``, ``int32`` (``int64`` when it
        does not fit) or ``float32``."""
        if isinstance(number, bool):
            return self.constant(number, BOOL)
        if isinstance(number, int):
            return self.constant(number, INT32 if -(2**31) <= number < 2**31 else INT64)
        return self.constant(number, FLOAT32)

    def cast(self, scalar: Scalar, dtype: DataType) -> Scalar:
        """``T.Cast(dtype, scalar)``, as TVM compiles it (a constant is folded)."""
        source = scalar.dtype
        if source == dtype:
            return scalar
        folded = _constant_value(scalar.value)
        if folded is not None and not dtype.is_bool and (dtype.is_float or isfinite(folded)):
            return self.constant(folded, dtype)
        target = mlir_type(dtype)
        value = scalar.value
        if dtype.is_bool:
            return self.compare("!=", scalar, self.constant(0, source))
        if source.is_float and dtype.is_float:
            op = arith.ExtFOp if dtype.bits > source.bits else arith.TruncFOp
            return Scalar(self.value(op(value, target)), dtype)  # pyright: ignore[reportArgumentType]
        if source.is_float:
            op = arith.FPToSIOp if is_signed(dtype) else arith.FPToUIOp
            return Scalar(self.value(op(value, target)), dtype)  # pyright: ignore[reportArgumentType]
        if dtype.is_float:
            op = arith.SIToFPOp if is_signed(source) else arith.UIToFPOp
            return Scalar(self.value(op(value, target)), dtype)  # pyright: ignore[reportArgumentType]
        if dtype.bits == source.bits:
            return Scalar(value, dtype)
        if dtype.bits < source.bits:
            return Scalar(self.value(arith.TruncIOp(value, target)), dtype)  # pyright: ignore
        op = arith.ExtSIOp if is_signed(source) else arith.ExtUIOp
        return Scalar(self.value(op(value, target)), dtype)  # pyright: ignore[reportArgumentType]

    def match_types(self, lhs: Scalar, rhs: Scalar) -> tuple[Scalar, Scalar]:
        """The operands of a binary operation converted to their ``common_type``."""
        common = common_type(lhs.dtype, rhs.dtype)
        return self.cast(lhs, common), self.cast(rhs, common)

    def compare(self, operator: str, lhs: Scalar, rhs: Scalar) -> Scalar:
        """``lhs operator rhs`` (``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``) as
        TVM compiles it: ordered float comparisons, signed or unsigned integers."""
        lhs, rhs = self.match_types(lhs, rhs)
        if lhs.dtype.is_float:
            predicate = "o" + _PREDICATES[operator]
            op: Operation = arith.CmpfOp(lhs.value, rhs.value, predicate)
        else:
            predicate = _PREDICATES[operator]
            if predicate not in ("eq", "ne"):
                predicate = ("s" if is_signed(lhs.dtype) else "u") + predicate
            op = arith.CmpiOp(lhs.value, rhs.value, predicate)
        return Scalar(self.value(op), BOOL)

    def index(self, scalar: Scalar) -> SSAValue:
        """An integer scalar as an ``index`` (for subscripts and loop bounds)."""
        if not (scalar.dtype.is_int or scalar.dtype.is_bool):
            raise TIRTypeError(f"an index must be an integer, not {scalar.dtype.tvm_name()}")
        value = scalar.value
        if isinstance(value.type, IndexType):
            return value
        folded = _constant_value(value)
        if folded is not None:
            return self.value(arith.ConstantOp(IntegerAttr(int(folded), IndexType())))
        if not is_signed(scalar.dtype) and scalar.dtype.bits < 64:
            value = self.value(arith.ExtUIOp(value, i64))
        return self.value(arith.IndexCastOp(value, IndexType()))

    def from_index(self, value: SSAValue, dtype: DataType) -> Scalar:
        """An ``index`` value as a scalar of integer ``dtype``."""
        kind = mlir_type(dtype)
        assert isinstance(kind, IntegerType)
        return Scalar(self.value(arith.IndexCastOp(value, kind)), dtype)


def common_type(left: DataType, right: DataType) -> DataType:
    """The type TVM computes a binary operation in (``BinaryOpMatchTypes``): the
    wider float, a float over an integer, the wider integer, the unsigned one of
    two integers of one width."""
    if left == right:
        return left
    if left.is_float and right.is_float:
        return left if left.bits >= right.bits else right
    if left.is_float or right.is_float:
        return left if left.is_float else right
    if left.bits != right.bits:
        return left if left.bits > right.bits else right
    return left if left.code == "uint" else right


_PREDICATES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


def _constant_value(value: SSAValue) -> int | float | None:
    """The number an ``arith.constant`` defines (None for any other value)."""
    op = value.owner
    if not isinstance(op, arith.ConstantOp):
        return None
    attr = op.value
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr.value.data
    return None
