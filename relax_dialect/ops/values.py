"""Value constructors: constants, shapes, prim values, strings, data types, tuples."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from xdsl.dialects.builtin import IntAttr, StringAttr
from xdsl.ir import SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import (
    DataTypeAttr,
    DenseAttr,
    PrimExprAttr,
    ShapeAttr,
    parse_dense_body,
    print_dense_body,
)
from ..dtype import BOOL, FLOAT32, INT64, DataType
from ..prim_expr import to_text
from ..syntax import parse_dtype, parse_prim_expr, parse_shape, print_shape
from ..types import ObjectType, PrimType, ShapeType, StructInfoType, TensorType, TupleType
from .base import (
    BindingOp,
    parse_or_infer_type,
    parse_value,
    parse_values,
    print_result_type,
    print_values,
    relax_type,
)
from .references import ExternFuncOp, GlobalVarOp, OpRefOp


@irdl_op_definition
class ConstantOp(BindingOp):
    """A constant tensor (the spec's ``Constant``)."""

    name = "relax.constant"
    value = prop_def(DenseAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: DenseAttr, result_type: StructInfoType | None = None):
        super().__init__(
            properties={"value": value},
            result_types=[result_type or constant_type(value)],
        )

    def infer_type(self) -> StructInfoType:
        return constant_type(self.value)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        start = parser.pos
        parser.parse_keyword("dense")
        with parser.in_angle_brackets():
            value = DenseAttr(parse_dense_body(parser))
        return parse_or_infer_type(parser, start, lambda t: cls(value, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(" dense<")
        print_dense_body(printer, self.value.array, self.result.name_hint or "blob")
        printer.print_string(">")
        print_result_type(printer, self)


def constant_type(value: DenseAttr) -> TensorType:
    data = value.data
    return _tensor_type(data.shape, data.dtype)


@lru_cache(maxsize=4096)
def _tensor_type(shape: tuple[int, ...], dtype: np.dtype) -> TensorType:
    """The (immutable) type of constants of one shape and data type, built once:
    verification infers every constant's type again after each pass."""
    return TensorType(shape, DataType.from_numpy(dtype))


@irdl_op_definition
class ShapeOp(BindingOp):
    """A shape literal (the spec's ``ShapeExpr``): ``relax.shape [n, 4]``."""

    name = "relax.shape"
    dims = prop_def(ShapeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, dims: ShapeAttr, result_type: StructInfoType | None = None):
        super().__init__(
            properties={"dims": dims}, result_types=[result_type or ShapeType(dims.data)]
        )

    def infer_type(self) -> StructInfoType:
        return ShapeType(self.dims.data)

    @classmethod
    def parse(cls, parser: Parser) -> ShapeOp:
        start = parser.pos
        dims = ShapeAttr(parse_shape(parser))
        return parse_or_infer_type(parser, start, lambda t: cls(dims, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_shape(printer, self.dims.data)
        print_result_type(printer, self)


@irdl_op_definition
class PrimValueOp(BindingOp):
    """An immutable scalar (the spec's ``PrimValue``): ``relax.prim_value n + 1``.

    Its data type is the one of its result type, ``i64``/``f32``/``bool`` by
    default; only scalar (1-lane) int, uint and float values are allowed.
    """

    name = "relax.prim_value"
    value = prop_def(PrimExprAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: PrimExprAttr, result_type: StructInfoType | None = None):
        default = PrimType(_default_dtype(value), value.data)
        super().__init__(properties={"value": value}, result_types=[result_type or default])

    def data_type(self) -> DataType:
        declared = self.result.type
        if isinstance(declared, PrimType):
            return declared.data_type
        return _default_dtype(self.value)

    def infer_type(self) -> StructInfoType:
        dtype = self.data_type()
        if dtype.lanes != 1:
            raise VerifyException(
                f"relax.prim_value: value of data type {dtype} has {dtype.lanes} lanes; "
                "prim values are scalars (well-formedness rule 16)"
            )
        return PrimType(dtype, self.value.data)

    @classmethod
    def parse(cls, parser: Parser) -> PrimValueOp:
        start = parser.pos
        value = PrimExprAttr(parse_prim_expr(parser))
        return parse_or_infer_type(parser, start, lambda t: cls(value, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {to_text(self.value.data)}")
        print_result_type(printer, self)


def _default_dtype(value: PrimExprAttr) -> DataType:
    return {"int": INT64, "float": FLOAT32, "bool": BOOL}[value.data.kind]


@irdl_op_definition
class StringImmOp(BindingOp):
    """A string (the spec's ``StringImm``), typed ``!relax.object``."""

    name = "relax.str"
    value = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: str, result_type: StructInfoType | None = None):
        super().__init__(
            properties={"value": StringAttr(value)}, result_types=[result_type or ObjectType()]
        )

    def infer_type(self) -> StructInfoType:
        return ObjectType()

    @classmethod
    def parse(cls, parser: Parser) -> StringImmOp:
        start = parser.pos
        value = parser.parse_str_literal()
        return parse_or_infer_type(parser, start, lambda t: cls(value, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.value.data)
        print_result_type(printer, self)


@irdl_op_definition
class DataTypeImmOp(BindingOp):
    """A data type as a value (the spec's ``DataTypeImm``), typed ``!relax.object``."""

    name = "relax.dtype"
    value = prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: DataType, result_type: StructInfoType | None = None):
        super().__init__(
            properties={"value": DataTypeAttr(value)},
            result_types=[result_type or ObjectType()],
        )

    def infer_type(self) -> StructInfoType:
        return ObjectType()

    @classmethod
    def parse(cls, parser: Parser) -> DataTypeImmOp:
        start = parser.pos
        value = parse_dtype(parser)
        return parse_or_infer_type(parser, start, lambda t: cls(value, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.value.data}")
        print_result_type(printer, self)


@irdl_op_definition
class TupleOp(BindingOp):
    """A tuple of values: ``relax.tuple(%a, %b)``."""

    name = "relax.tuple"
    fields = var_operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, fields: Sequence[SSAValue], result_type: StructInfoType | None = None):
        inferred = TupleType([f.type for f in fields])
        super().__init__(operands=[fields], result_types=[result_type or inferred])

    def infer_type(self) -> StructInfoType:
        return TupleType([relax_type(self.name, f) for f in self.fields])

    @classmethod
    def parse(cls, parser: Parser) -> TupleOp:
        start = parser.pos
        fields = parse_values(parser, parser.Delimiter.PAREN)
        return parse_or_infer_type(parser, start, lambda t: cls(fields, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        print_values(printer, self.fields)
        printer.print_string(")")
        print_result_type(printer, self)


@irdl_op_definition
class TupleGetItemOp(BindingOp):
    """Tuple indexing: ``relax.tuple_get_item %t[0]``."""

    name = "relax.tuple_get_item"
    tuple_value = operand_def()
    index = prop_def(IntAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(
        self, tuple_value: SSAValue, index: int, result_type: StructInfoType | None = None
    ):
        if result_type is None and isinstance(tuple_value.type, TupleType):
            result_type = tuple_value.type.types[index]
        super().__init__(
            operands=[tuple_value],
            properties={"index": IntAttr(index)},
            result_types=[result_type or ObjectType()],
        )

    def infer_type(self) -> StructInfoType:
        source = relax_type(self.name, self.tuple_value)
        if not isinstance(source, TupleType):
            raise VerifyException(
                f"relax.tuple_get_item: operand has type {source}, expected a tuple "
                "(use relax.match_cast to check it at run time)"
            )
        index = self.index.data
        if not 0 <= index < len(source.types):
            raise VerifyException(
                f"relax.tuple_get_item: index {index} is out of range for a tuple of "
                f"{len(source.types)} fields"
            )
        return source.types[index]

    @classmethod
    def parse(cls, parser: Parser) -> TupleGetItemOp:
        start = parser.pos
        tuple_value = parse_value(parser)
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation("]")
        return parse_or_infer_type(parser, start, lambda t: cls(tuple_value, index, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tuple_value)
        printer.print_string(f"[{self.index.data}]")
        print_result_type(printer, self)


LEAVES: tuple[type[BindingOp], ...] = (
    ConstantOp,
    ShapeOp,
    PrimValueOp,
    StringImmOp,
    DataTypeImmOp,
    TupleOp,
    GlobalVarOp,
    ExternFuncOp,
    OpRefOp,
)
"""Bindings of the values TVM writes inline at their uses (its leaf expressions, and
tuples): the TVMScript printer prints them there, CSE compares them by value."""
