"""Relax operators: the operations that compute values from operands and attributes.

Every operator (``relax.add``, ``relax.sum``, ``relax.nn.conv2d``, ...) is an
``OperatorOp``. Its attributes are properties holding builtin attributes, and
its custom syntax writes them as a dictionary of plain values::

    %s = relax.sum %x {axis = [1], keepdims = true} : !relax.tensor<[n, 1], f32>

=============  =====================  ==============================
Python value   property               written
=============  =====================  ==============================
``int``        ``IntegerAttr`` (i64)  ``3``
``bool``       ``BoolAttr`` (i1)      ``true``
``float``      ``FloatAttr`` (f64)    ``0.5``
``str``        ``StringAttr``         ``"NCHW"``
``[int]``      ``array<i64: ...>``    ``[0, 1]``
``[float]``    ``array<f64: ...>``    ``[0.5, 1.0]``
``DataType``   ``#relax.dtype<...>``  ``f32``
=============  =====================  ==============================

An attribute left out takes its default (declared on the property, as xDSL's
``default_value``); ``attr(name)`` reads either as a Python value.
``OperatorOp.build`` creates an operator from Python values and infers its
result type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache, wraps
from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyOf,
    AttrSizedOperandSegments,
    BaseAttr,
    OptOperandDef,
    ParamAttrConstraint,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ..attributes import DataTypeAttr, parse_optional_scalar
from ..bounded_memo import BoundedMemo
from ..dtype import DataType
from ..prim_expr import float_text
from ..types import (
    PrimType,
    ShapeType,
    StructInfoType,
    TensorType,
    parse_struct_info,
    parsed_struct_info,
)
from .base import (
    BindingOp,
    build_inferred,
    parse_or_infer_type,
    parse_value,
    print_result_type,
    print_values,
    relax_type,
)
from .fusion import FusionKind
from .inference import prim_operand, shape_operand, tensor_operand
from .placement import Placement, place

SEGMENTS = AttrSizedOperandSegments.attribute_name
AttrValue = int | bool | float | str | DataType | tuple[int, ...] | tuple[float, ...] | Attribute


class OperatorOp(BindingOp):
    """A Relax operator (TVM's ``Op``): ``relax.op_ref`` can name it and
    ``relax.invoke`` can call it. Each declares its purity as a trait (``Pure``,
    or ``traits.Impure``) and its ``FUSION`` kind, itself or through its family's
    base class."""

    NAMESPACE: ClassVar[str] = "relax"
    FUSION: ClassVar[FusionKind]
    """How ``relax-fuse-ops`` fuses it (``fusion.OpPattern``, or a function of the
    operation when TVM's kind depends on the shapes)."""
    PLACEMENT: ClassVar[Placement]
    """On which virtual device its result lives (``placement.Placement``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Memoise the inference each operator defines, placing its result on its
        virtual device (see ``_memoised``)."""
        super().__init_subclass__(**kwargs)
        infer = cls.__dict__.get("infer_type")
        if infer is not None:
            cls.infer_type = _memoised(infer)

    def attr(self, name: str, default: Any = None) -> Any:
        """An attribute as a Python value; when it is not set, the default its
        property declares, else ``default``."""
        found = self.properties.get(name)
        if found is None:
            declared = self.get_irdl_definition().properties.get(name)
            found = None if declared is None else declared.default_value
        return default if found is None else python_value(found)

    def tensor_of(self, value: SSAValue, which: str) -> TensorType:
        """The type of an operand that must be a tensor."""
        return tensor_operand(self.name, relax_type(self.name, value), which)

    def prim_of(self, value: SSAValue, which: str) -> PrimType:
        """The type of an operand that must be a prim value."""
        return prim_operand(self.name, relax_type(self.name, value), which)

    def shape_of(self, value: SSAValue, which: str) -> ShapeType:
        """The type of an operand that must be a shape."""
        return shape_operand(self.name, relax_type(self.name, value), which)

    def data_type_attr(self, name: str) -> DataType | None:
        """A data-type attribute; None when unset or ``void`` (TVM's "not given")."""
        dtype = self.attr(name)
        return None if dtype is None or dtype.is_void else dtype

    def int_list(self, name: str) -> tuple[int, ...] | None:
        """A list attribute that must hold integers (None when it is not set)."""
        values = self.attr(name)
        if values is not None and not all(isinstance(v, int) for v in values):
            raise VerifyException(f"{self.name}: {name} must be a list of integers")
        return values

    @classmethod
    def build(
        cls,
        operands: Sequence[SSAValue],
        result_type: StructInfoType | None = None,
        **attributes: AttrValue | None,
    ) -> Self:
        """The operator on ``operands`` with attributes given as Python values
        (``None`` leaves one unset); without ``result_type``, the inferred one."""
        properties = {k: attribute_of(v) for k, v in attributes.items() if v is not None}
        properties |= cls.segment_sizes(len(operands))

        def make(sinfo: StructInfoType) -> Self:
            return cls.create(operands=list(operands), properties=properties, result_types=[sinfo])

        if result_type is not None:
            return make(result_type)
        return build_inferred(make)  # pyright: ignore[reportReturnType]

    @classmethod
    def parse(cls, parser: Parser) -> OperatorOp:
        """``relax.op %a, %b {attr = value} : T`` (the type may be omitted; the
        operands start on the operator's line)."""
        start = parser.pos
        operands = []
        token = parser._current_token  # pyright: ignore[reportPrivateUsage]
        on_line = token.kind == MLIRTokenKind.PERCENT_IDENT and _continues_line(parser)
        if on_line and (op := cls.parse_plain(parser, start)) is not None:
            return op
        if on_line:
            operands = [parse_value(parser)]
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parse_value(parser))
        properties = parse_attributes(parser) | cls.segment_sizes(len(operands))

        def make(result_type: StructInfoType) -> OperatorOp:
            return cls.create(operands=operands, properties=properties, result_types=[result_type])

        return parse_or_infer_type(parser, start, make)  # pyright: ignore[reportReturnType]

    @classmethod
    def parse_plain(cls, parser: Parser, position: int) -> OperatorOp | None:
        """The operator whose operands start at ``position``, if it is written in
        the plain form (``_PLAIN``), read mostly without xDSL's lexer (~14 µs a
        token, most of the cost of reading a binding); None, having read nothing,
        for any other form."""
        plain = _parse_plain(parser, position)
        if plain is None:
            return None
        operands, properties, result_type = plain
        properties |= cls.segment_sizes(len(operands))
        return cls.create(operands=operands, properties=properties, result_types=[result_type])

    @classmethod
    def segment_sizes(cls, count: int) -> dict[str, Attribute]:
        """``operandSegmentSizes`` for an operator with optional operands: the
        ``count`` operands given fill the operand definitions in order."""
        if not _has_segments(cls):
            return {}
        definition = cls.get_irdl_definition()
        sizes = []
        for _, operand in definition.operands:
            size = 1 if not isinstance(operand, OptOperandDef) or count > 0 else 0
            sizes.append(size)
            count -= size
        return {SEGMENTS: DenseArrayBase.from_list(i32, sizes)}

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            print_values(printer, self.operands)
        print_attributes(printer, self.properties, exclude=(SEGMENTS,))
        print_result_type(printer, self)


_INFERRED: BoundedMemo[tuple[object, ...], StructInfoType] = BoundedMemo(1 << 16)


def _memoised(infer: Callable[[Any], StructInfoType]) -> Callable[[Any], StructInfoType]:
    """``infer`` remembering its results. An operator's StructInfo depends only on
    its operand types and properties (as TVM's ``FInferStructInfo`` sees only the
    arguments' StructInfo and the attributes), and a program applies the same
    operators to the same types over and over; inference builds new types each
    time. The key holds ``infer`` itself, so ``super().infer_type()`` has its own.
    The result's tensors are put on the device of the operator's ``PLACEMENT``."""

    @wraps(infer)
    def infer_type(self: OperatorOp) -> StructInfoType:
        operand_types = tuple(operand.type for operand in self.operands)
        key = (type(self), infer, operand_types, tuple(self.properties.items()))
        found = _INFERRED.get(key)
        if found is not None:
            return found
        placed = place(self.name, self.PLACEMENT, operand_types, infer(self))  # pyright: ignore
        return _INFERRED.remember(key, placed)

    return infer_type


@cache
def _has_segments(cls: type[OperatorOp]) -> bool:
    """Whether the operator has optional operands (and so ``operandSegmentSizes``)."""
    options = cls.get_irdl_definition().options
    return any(isinstance(option, AttrSizedOperandSegments) for option in options)


_VALUE = r"%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_INTEGER = r"-?[0-9]+"
_INTEGERS = rf"\[(?:{_INTEGER}(?:[ \t]*,[ \t]*{_INTEGER})*)?\]"
_PLAIN_VALUE = rf'(?:true|false|{_INTEGER}|"[^"\\\n\v\f]*"|{_INTEGERS})'
_PLAIN_ENTRY = rf"[a-zA-Z_][a-zA-Z0-9_$.]*[ \t]*=[ \t]*{_PLAIN_VALUE}"
_PLAIN = re.compile(
    rf"(?P<operands>{_VALUE}(?:[ \t]*,[ \t]*{_VALUE})*)"
    rf"(?:[ \t]*\{{[ \t]*(?P<entries>{_PLAIN_ENTRY}(?:[ \t]*,[ \t]*{_PLAIN_ENTRY})*)[ \t]*\}})?"
    r"[ \t]*:[ \t]*"
)
"""An operator's operands, attributes and ``:`` on one line, in the plain form
the dialect prints: defined values, integers, booleans, strings without escapes
and lists of integers."""
_PLAIN_OPERAND = re.compile(_VALUE)
_PLAIN_ATTRIBUTE = re.compile(rf"([a-zA-Z_][a-zA-Z0-9_$.]*)[ \t]*=[ \t]*({_PLAIN_VALUE})")


def _parse_plain(
    parser: Parser, position: int
) -> tuple[list[SSAValue], dict[str, Attribute], StructInfoType] | None:
    """Operands, properties and result type of an operator written from
    ``position`` in the plain form (``_PLAIN``) with defined operands: the text up
    to the type is matched, the type usually comes from ``parse_struct_info``'s
    cache. None, having read nothing, for anything else."""
    source = parser.lexer.input.content
    match = _PLAIN.match(source, position)
    if match is None:
        return None
    operands = []
    for name in _PLAIN_OPERAND.findall(match["operands"]):
        values = parser.ssa_values.get(name[1:])
        if not values:
            return None
        operands.append(values[0])
    properties: dict[str, Attribute] = {}
    for name, text in _PLAIN_ATTRIBUTE.findall(match["entries"] or ""):
        if name in properties:
            return None
        try:
            properties[name] = attribute_of(_plain_value(text))
        except (ValueError, VerifyException):
            return None  # reported where the lexer stands, by the general path
    parsed = parsed_struct_info(source, match.end())
    if parsed is None:
        parser._resume_from(match.end())  # pyright: ignore[reportPrivateUsage]
        return operands, properties, parse_struct_info(parser)
    parser._resume_from(parsed[1])  # pyright: ignore[reportPrivateUsage]
    return operands, properties, parsed[0]


def _plain_value(text: str) -> AttrValue:
    """The value of an attribute matched by ``_PLAIN_VALUE``."""
    if text in ("true", "false"):
        return text == "true"
    if text.startswith('"'):
        return text[1:-1]
    if text.startswith("["):
        return tuple(int(item) for item in text[1:-1].split(",") if item.strip())
    return int(text)


def _continues_line(parser: Parser) -> bool:
    """Whether the next token is on the operator's line: operands start there,
    so that an operator without operands is not read into the next binding."""
    text, index = parser.lexer.input.content, parser.pos - 1
    while index >= 0 and text[index] in " \t\r":
        index -= 1
    return index < 0 or text[index] != "\n"


# --- attribute values -----------------------------------------------------------

KINDS: dict[type[Attribute], str] = {
    IntegerAttr: "int",
    FloatAttr: "float",
    StringAttr: "str",
    DenseArrayBase: "list",
    DataTypeAttr: "dtype",
}


def attribute_kind(constraint: object) -> str:
    """What a property holds, from its constraint: ``int``, ``bool``, ``float``,
    ``str``, ``list``, ``dtype`` (or an attribute's name); alternatives are joined
    (``float or int``)."""
    if isinstance(constraint, AnyOf):
        return " or ".join(attribute_kind(c) for c in constraint.attr_constrs)
    if isinstance(constraint, BaseAttr):
        return KINDS.get(constraint.attr, constraint.attr.name)
    if isinstance(constraint, ParamAttrConstraint):
        return "bool" if constraint.base_attr is IntegerAttr else constraint.base_attr.name
    return "attribute"


def attribute_of(value: AttrValue) -> Attribute:
    """The property holding a Python attribute value (an attribute is its own)."""
    if isinstance(value, Attribute):
        return value
    if isinstance(value, bool | int | str | DataType):
        return _exact_attribute(value)
    if isinstance(value, float):
        return FloatAttr(value, f64)
    values = tuple(value)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return _int_array_attribute(values)
    return DenseArrayBase.from_list(f64, [float(v) for v in values])


@lru_cache(maxsize=1024)
def _int_array_attribute(values: tuple[int, ...]) -> Attribute:
    """``array<i64: ...>``, built once (xDSL's ``from_list`` costs more than most
    inference); floats are left out, as ``-0.0 == 0.0``."""
    return DenseArrayBase.from_list(i64, values)  # pyright: ignore[reportArgumentType]


@lru_cache(maxsize=1024, typed=True)
def _exact_attribute(value: bool | int | str | DataType) -> Attribute:
    """``attribute_of`` for values that equal only themselves (``typed`` keeps
    ``True`` and ``1`` apart; floats are left out: ``-0.0 == 0.0``), built once:
    building an ``IntegerAttr`` costs more than inferring most operators."""
    if isinstance(value, bool):
        return BoolAttr.from_bool(value)
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, str):
        return StringAttr(value)
    return DataTypeAttr(value)


def python_value(attr: Attribute) -> Any:
    """The Python value of an operator attribute (other attributes are returned as is)."""
    if isinstance(attr, IntegerAttr):
        width = attr.type.width.data if isinstance(attr.type, IntegerType) else 64
        return bool(attr.value.data) if width == 1 else attr.value.data
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, DataTypeAttr):
        return attr.data
    if isinstance(attr, DenseArrayBase):
        return attr.get_values()  # pyright: ignore[reportUnknownMemberType]
    return attr


def print_attributes(
    printer: Printer, properties: Mapping[str, Attribute], exclude: Sequence[str] = ()
) -> None:
    """`` {name = value, ...}`` for the given properties, if any remain."""
    attributes = [(k, v) for k, v in properties.items() if k not in exclude]
    if attributes:
        printer.print_string(" {")
        printer.print_list(
            attributes, lambda item: print_attribute_entry(printer, item[0], item[1])
        )
        printer.print_string("}")


def print_attribute_entry(printer: Printer, name: str, attr: Attribute) -> None:
    printer.print_string(f"{name} = ")
    value = python_value(attr)
    if isinstance(value, bool):
        printer.print_string("true" if value else "false")
    elif isinstance(value, int | float | DataType):
        printer.print_string(_number_text(value))
    elif isinstance(value, str):
        printer.print_string_literal(value)
    elif isinstance(value, tuple):
        printer.print_string("[" + ", ".join(_number_text(v) for v in value) + "]")
    else:
        printer.print_attribute(attr)


def _number_text(value: object) -> str:
    return float_text(value) if isinstance(value, float) else str(value)


def parse_attributes(parser: Parser) -> dict[str, Attribute]:
    """``{name = value, ...}`` with the plain values of the module docstring
    (any other attribute is written in MLIR syntax)."""
    if parser.parse_optional_punctuation("{") is None:
        return {}
    entries: dict[str, Attribute] = {}
    while True:
        start = parser.pos
        name = parser.parse_identifier()
        if name in entries:
            parser.raise_error(f"attribute '{name}' is given twice", start, parser.pos)
        parser.parse_punctuation("=")
        entries[name] = _parse_attribute_value(parser)
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation("}")
    return entries


def _parse_attribute_value(parser: Parser) -> Attribute:
    if (scalar := parse_optional_scalar(parser)) is not None:
        return attribute_of(scalar)
    if (text := parser.parse_optional_str_literal()) is not None:
        return attribute_of(text)
    if parser.parse_optional_punctuation("[") is not None:
        items: list[int | float] = []
        if parser.parse_optional_punctuation("]") is None:
            items.append(parser.parse_number())
            while parser.parse_optional_punctuation(",") is not None:
                items.append(parser.parse_number())
            parser.parse_punctuation("]")
        return attribute_of(tuple(items))  # pyright: ignore[reportArgumentType]
    start = parser.pos
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if token.kind == MLIRTokenKind.BARE_IDENT and token.text != "affine_map":
        word = parser.parse_identifier()
        dtype = DataType.parse(word)
        if dtype is None:
            parser.raise_error(f"expected an attribute value, got '{word}'", start, parser.pos)
        return DataTypeAttr(dtype)
    try:
        return parser.parse_attribute()
    except NotImplementedError as error:  # xDSL's affine maps: no semi-affine products
        parser.raise_error(f"unsupported attribute: {error}", start, parser.pos)
