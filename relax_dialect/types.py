"""StructInfo as MLIR types: the type of every Relax value.

=====================  =============================================
Relax StructInfo       Dialect type
=====================  =============================================
ObjectStructInfo       ``!relax.object``
PrimStructInfo         ``!relax.prim<i64>``, ``!relax.prim<i64, n + 1>``
ShapeStructInfo        ``!relax.shape``, ``!relax.shape<ndim = 2>``, ``!relax.shape<[n, 4]>``
TensorStructInfo       ``!relax.tensor``, ``!relax.tensor<f32>``, ``!relax.tensor<ndim = 2, f32>``,
                       ``!relax.tensor<[n, 4], f32>`` (no dtype means ``void``: unknown),
                       ``!relax.tensor<[n], f32, vdevice = "cuda:0:global">``
TupleStructInfo        ``!relax.tuple<tensor<[n], f32>, object>``
FuncStructInfo         ``!relax.func<(tensor<[n], f32>) -> tensor<[n], f32>>``,
                       ``!relax.func<(object) -> object, impure>``,
                       ``!relax.func<... -> object>`` (opaque), ``!relax.func<derive "name">``
=====================  =============================================

Types nested in a Relax type may drop the ``!relax.`` prefix, as the LLVM
dialect does for its own types. A ``ndim = k`` may accompany a shape as a
checked assertion. The construction-time checks name the well-formedness
rule of the spec that they enforce.
"""

from __future__ import annotations

import re
from abc import ABC
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from .attributes import DataTypeAttr, PrimExprAttr, ShapeAttr, int_attr
from .bounded_memo import BoundedMemo
from .dtype import VOID, DataType
from .prim_expr import PrimExpr, as_expr, dimension_problem, to_text
from .syntax import parse_dtype, parse_prim_expr, parse_shape
from .vdevice import VDeviceRef, VDeviceRefAttr, parse_reference

UNKNOWN_NDIM = -1
DERIVE_FUNCS = ("default_derive", "empty_derive")
NONE = NoneAttr()


@lru_cache(maxsize=256)
def _dtype_attr(dtype: DataType) -> DataTypeAttr:
    return DataTypeAttr(dtype)


class StructInfoType(ParametrizedAttribute, TypeAttribute, ABC):
    """Base class of the Relax StructInfo types."""

    KEYWORD: ClassVar[str]

    def _init(self, *params: Attribute) -> None:
        """Set the parameters, which the constructors build well typed, and check
        the construction rules. xDSL's generic check of the parameters is left out:
        it costs more than the rest of building a type, and inference builds
        types for every binding."""
        for (field, _), param in zip(self.get_irdl_definition().parameters, params, strict=True):
            object.__setattr__(self, field, param)
        self.verify()

    def __hash__(self) -> int:
        """Computed once: types key the memo tables of inference and checking.
        (Each concrete class sets ``__hash__`` to this one, else the dataclass
        decorator would generate its own.)"""
        found = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = hash(self.parameters)
        return found

    def problem(self) -> str | None:
        """The construction rule this type breaks, if any."""
        return None

    def verify(self) -> None:
        if (message := self.problem()) is not None:
            raise VerifyException(message)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        """Parse the parameters; a broken construction rule is reported at its text."""
        start = parser.pos
        params = cls.parse_fields(parser)
        unchecked = cls.__new__(cls)
        for (field, _), param in zip(cls.get_irdl_definition().parameters, params, strict=True):
            object.__setattr__(unchecked, field, param)
        if (message := unchecked.problem()) is not None:
            parser.raise_error(message, start, parser.pos)
        return params

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> Sequence[Attribute]:
        """Parse the parameters from the text after the type's name."""
        return ()


@irdl_attr_definition
class ObjectType(StructInfoType):
    """Any Relax value (``ObjectStructInfo``)."""

    name = "relax.object"
    KEYWORD = "object"
    __hash__ = StructInfoType.__hash__

    def __init__(self) -> None:
        """Nothing to set or check (see ``StructInfoType._init``)."""

    def print_parameters(self, printer: Printer) -> None:
        pass


@irdl_attr_definition
class PrimType(StructInfoType):
    """A scalar prim value of ``dtype``, optionally with a known ``value``."""

    name = "relax.prim"
    KEYWORD = "prim"
    __hash__ = StructInfoType.__hash__

    dtype: DataTypeAttr
    value: PrimExprAttr | NoneAttr

    def __init__(self, dtype: DataType | str, value: PrimExpr | int | float | None = None):
        data_type = dtype if isinstance(dtype, DataType) else DataType.parse(dtype)
        if data_type is None:
            raise VerifyException(f"unknown data type '{dtype}'")
        known = NONE if value is None else PrimExprAttr(as_expr(value))
        self._init(_dtype_attr(data_type), known)

    @property
    def data_type(self) -> DataType:
        return self.dtype.data

    @property
    def known_value(self) -> PrimExpr | None:
        return self.value.data if isinstance(self.value, PrimExprAttr) else None

    def problem(self) -> str | None:
        dtype = self.data_type
        if dtype.code not in ("int", "uint", "float"):
            return (
                f"prim type cannot have data type {dtype}; only int, uint and float "
                "(well-formedness rule 17)"
            )
        value = self.known_value
        if value is None:
            return None
        expected = "bool" if dtype.is_bool else "float" if dtype.is_float else "int"
        compatible = value.kind == expected or (expected == "float" and value.kind == "int")
        if not compatible:
            return f"prim value '{to_text(value)}' ({value.kind}) does not match data type {dtype}"
        return None

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dtype = parse_dtype(parser)
            value = None
            if parser.parse_optional_punctuation(",") is not None:
                value = parse_prim_expr(parser)
        return (_dtype_attr(dtype), NONE if value is None else PrimExprAttr(value))

    def print_parameters(self, printer: Printer) -> None:
        value = self.known_value
        suffix = "" if value is None else f", {to_text(value)}"
        printer.print_string(f"<{self.data_type}{suffix}>")


def _parse_rank_and_dtype(
    parser: AttrParser, allow_dtype: bool
) -> tuple[tuple[PrimExpr, ...] | None, int, DataType, VDeviceRef | None]:
    """Comma-separated ``[dims]``, ``ndim = k`` and (for tensors) a data type and
    ``vdevice = "kind:index:scope"``."""
    dims: tuple[PrimExpr, ...] | None = None
    ndim: int | None = None
    dtype: DataType | None = None
    device: VDeviceRef | None = None
    while True:
        start = parser.pos
        if parser._current_token.kind == MLIRTokenKind.L_SQUARE:  # pyright: ignore
            if dims is not None:
                parser.raise_error("the shape is given twice", start)
            dims = parse_shape(parser)
        elif parser.parse_optional_keyword("ndim") is not None:
            if ndim is not None:
                parser.raise_error("ndim is given twice", start)
            parser.parse_punctuation("=")
            ndim = parser.parse_integer(allow_boolean=False)
        elif allow_dtype and parser.parse_optional_keyword("vdevice") is not None:
            if device is not None:
                parser.raise_error("the virtual device is given twice", start)
            parser.parse_punctuation("=")
            device = parse_reference(parser)
        elif allow_dtype and dtype is None:
            dtype = parse_dtype(parser)
        else:
            parser.raise_error("expected a shape '[...]' or 'ndim = k'", start)
        if parser.parse_optional_punctuation(",") is None:
            break
    if ndim is None:
        ndim = UNKNOWN_NDIM if dims is None else len(dims)
    return dims, ndim, VOID if dtype is None else dtype, device


def _rank_problem(kind: str, dims: tuple[PrimExpr, ...] | None, ndim: int) -> str | None:
    if ndim < UNKNOWN_NDIM:
        return f"{kind} ndim must be >= -1, got {ndim}"
    if dims is not None and len(dims) != ndim:
        return (
            f"{kind} ndim {ndim} does not match its {len(dims)} dimensions (well-formedness rule 9)"
        )
    return None


def _dims_attr(dims: Sequence[PrimExpr | int | str] | None) -> ShapeAttr | NoneAttr:
    return NONE if dims is None else ShapeAttr.from_dims(dims)


def _vdevice_attr(device: VDeviceRef | str | None) -> VDeviceRefAttr | NoneAttr:
    if device is None:
        return NONE
    if isinstance(device, VDeviceRef):
        return VDeviceRefAttr(device)
    try:
        return VDeviceRefAttr(VDeviceRef.parse(device))
    except ValueError as error:
        raise VerifyException(f"bad virtual device: {error}") from None


def _rank_text(dims: tuple[PrimExpr, ...] | None, ndim: int) -> str | None:
    if dims is not None:
        return "[" + ", ".join(to_text(d) for d in dims) + "]"
    return None if ndim == UNKNOWN_NDIM else f"ndim = {ndim}"


@irdl_attr_definition
class ShapeType(StructInfoType):
    """A shape value: its dimensions (``values``) or just their count (``ndim``)."""

    name = "relax.shape"
    KEYWORD = "shape"
    __hash__ = StructInfoType.__hash__

    values: ShapeAttr | NoneAttr
    ndim: IntAttr

    def __init__(
        self, values: Sequence[PrimExpr | int | str] | None = None, ndim: int | None = None
    ):
        rank = (UNKNOWN_NDIM if values is None else len(values)) if ndim is None else ndim
        self._init(_dims_attr(values), int_attr(rank))

    @property
    def dims(self) -> tuple[PrimExpr, ...] | None:
        return self.values.data if isinstance(self.values, ShapeAttr) else None

    @property
    def rank(self) -> int:
        return self.ndim.data

    def problem(self) -> str | None:
        return _rank_problem("shape", self.dims, self.rank)

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser.parse_optional_punctuation("<") is None:
            return (NONE, int_attr(UNKNOWN_NDIM))
        dims, ndim, _, _ = _parse_rank_and_dtype(parser, allow_dtype=False)
        parser.parse_punctuation(">")
        return (_dims_attr(dims), int_attr(ndim))

    def print_parameters(self, printer: Printer) -> None:
        if (text := _rank_text(self.dims, self.rank)) is not None:
            printer.print_string(f"<{text}>")


@irdl_attr_definition
class TensorType(StructInfoType):
    """A tensor: its shape (or just its rank) and its element data type."""

    name = "relax.tensor"
    KEYWORD = "tensor"
    __hash__ = StructInfoType.__hash__

    shape: ShapeAttr | NoneAttr
    ndim: IntAttr
    dtype: DataTypeAttr
    vdevice: VDeviceRefAttr | NoneAttr

    def __init__(
        self,
        shape: Sequence[PrimExpr | int | str] | None = None,
        dtype: DataType | str = VOID,
        ndim: int | None = None,
        vdevice: VDeviceRef | str | None = None,
    ):
        data_type = dtype if isinstance(dtype, DataType) else DataType.parse(dtype)
        if data_type is None:
            raise VerifyException(f"unknown data type '{dtype}'")
        rank = (UNKNOWN_NDIM if shape is None else len(shape)) if ndim is None else ndim
        self._init(
            _dims_attr(shape), int_attr(rank), _dtype_attr(data_type), _vdevice_attr(vdevice)
        )

    @property
    def device(self) -> VDeviceRef | None:
        """The virtual device the tensor lives on, when known."""
        return self.vdevice.data if isinstance(self.vdevice, VDeviceRefAttr) else None

    def on_device(self, device: VDeviceRef | None) -> TensorType:
        """The same tensor type on ``device`` (None: on no known device)."""
        if device == self.device:
            return self
        return TensorType(self.dims, self.data_type, self.rank, device)

    @property
    def dims(self) -> tuple[PrimExpr, ...] | None:
        return self.shape.data if isinstance(self.shape, ShapeAttr) else None

    @property
    def rank(self) -> int:
        return self.ndim.data

    @property
    def data_type(self) -> DataType:
        return self.dtype.data

    def problem(self) -> str | None:
        if (message := _rank_problem("tensor", self.dims, self.rank)) is not None:
            return message
        return next(filter(None, map(dimension_problem, self.dims or ())), None)

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser.parse_optional_punctuation("<") is None:
            return (NONE, int_attr(UNKNOWN_NDIM), _dtype_attr(VOID), NONE)
        dims, ndim, dtype, device = _parse_rank_and_dtype(parser, allow_dtype=True)
        parser.parse_punctuation(">")
        return (_dims_attr(dims), int_attr(ndim), _dtype_attr(dtype), _vdevice_attr(device))

    def print_parameters(self, printer: Printer) -> None:
        parts = [_rank_text(self.dims, self.rank)]
        if not self.data_type.is_void:
            parts.append(str(self.data_type))
        if self.device is not None:
            parts.append(f'vdevice = "{self.device}"')
        text = ", ".join(p for p in parts if p is not None)
        if text:
            printer.print_string(f"<{text}>")


@irdl_attr_definition
class TupleType(StructInfoType):
    """A tuple of values with the given field types."""

    name = "relax.tuple"
    KEYWORD = "tuple"
    __hash__ = StructInfoType.__hash__

    fields: ArrayAttr[Attribute]

    def __init__(self, fields: Sequence[StructInfoType]):
        self._init(ArrayAttr(fields))

    @property
    def types(self) -> tuple[StructInfoType, ...]:
        return self.fields.data  # pyright: ignore[reportReturnType]

    def problem(self) -> str | None:
        return _non_struct_info(self.fields.data)

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields = parser.parse_comma_separated_list(
            parser.Delimiter.ANGLE, lambda: parse_struct_info(parser)
        )
        return (ArrayAttr(fields),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_list(self.types, lambda t: print_struct_info(printer, t))
        printer.print_string(">")


@irdl_attr_definition
class FuncType(StructInfoType):
    """A function value: parameter and result types and purity.

    An opaque function has no parameter list; its result comes from ``ret``
    or, when ``derive_func`` names a derivation, from the call site.
    """

    name = "relax.func"
    KEYWORD = "func"
    __hash__ = StructInfoType.__hash__

    params: ArrayAttr[Attribute] | NoneAttr
    ret: Attribute
    purity: IntAttr
    derive_func: StringAttr | NoneAttr

    def __init__(
        self,
        params: Sequence[StructInfoType] | None,
        ret: StructInfoType,
        pure: bool = True,
        derive_func: str | None = None,
    ):
        self._init(
            NONE if params is None else ArrayAttr(params),
            ret,
            int_attr(int(pure)),
            NONE if derive_func is None else StringAttr(derive_func),
        )

    @property
    def param_types(self) -> tuple[StructInfoType, ...] | None:
        if isinstance(self.params, ArrayAttr):
            return self.params.data  # pyright: ignore[reportReturnType]
        return None

    @property
    def ret_type(self) -> StructInfoType:
        return self.ret  # pyright: ignore[reportReturnType]

    @property
    def is_pure(self) -> bool:
        return bool(self.purity.data)

    @property
    def derive(self) -> str | None:
        return self.derive_func.data if isinstance(self.derive_func, StringAttr) else None

    @property
    def is_opaque(self) -> bool:
        return self.param_types is None

    def problem(self) -> str | None:
        derive = self.derive
        if derive is not None:
            if self.param_types is not None:
                return (
                    "a function type cannot have both parameters and a derive function "
                    "(well-formedness rule 15)"
                )
            if derive not in DERIVE_FUNCS:
                return f"unknown derive function '{derive}' (known: {', '.join(DERIVE_FUNCS)})"
            if not isinstance(self.ret, ObjectType):
                return "a function type with a derive function returns object"
        params = () if self.param_types is None else self.param_types
        return _non_struct_info((*params, self.ret))

    @classmethod
    def parse_fields(cls, parser: AttrParser) -> Sequence[Attribute]:
        params: list[StructInfoType] | None = None
        ret: StructInfoType = ObjectType()
        derive = None
        pure = True
        with parser.in_angle_brackets():
            if parser.parse_optional_keyword("derive") is not None:
                derive = parser.parse_str_literal()
            else:
                if parser.parse_optional_punctuation("...") is None:
                    params = parser.parse_comma_separated_list(
                        parser.Delimiter.PAREN, lambda: parse_struct_info(parser)
                    )
                parser.parse_punctuation("->")
                ret = parse_struct_info(parser)
            while parser.parse_optional_punctuation(",") is not None:
                if parser.parse_optional_keyword("derive") is not None:
                    derive = parser.parse_str_literal()
                else:
                    parser.parse_keyword("impure", " or 'derive' in a function type")
                    pure = False
        return (
            NONE if params is None else ArrayAttr(params),
            ret,
            int_attr(int(pure)),
            NONE if derive is None else StringAttr(derive),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        params = self.param_types
        if self.derive is not None and params is None:
            printer.print_string(f'derive "{self.derive}"')
        else:
            if params is None:
                printer.print_string("...")
            else:
                printer.print_string("(")
                printer.print_list(params, lambda t: print_struct_info(printer, t))
                printer.print_string(")")
            printer.print_string(" -> ")
            print_struct_info(printer, self.ret_type)
            if self.derive is not None:
                printer.print_string(f', derive "{self.derive}"')
        if not self.is_pure:
            printer.print_string(", impure")
        printer.print_string(">")


def _non_struct_info(types: Sequence[Attribute]) -> str | None:
    for t in types:
        if not isinstance(t, StructInfoType):
            return f"expected a Relax type, got {t}"
    return None


STRUCT_INFO_TYPES: dict[str, type[StructInfoType]] = {
    cls.KEYWORD: cls for cls in (ObjectType, PrimType, ShapeType, TensorType, TupleType, FuncType)
}


_PARSED: BoundedMemo[str, StructInfoType] = BoundedMemo(4096)
"""Relax types by their text: a program repeats the same few types many times."""


_TYPE_NAME = re.compile(r"[\w!.]*")
_TYPE_DELIMITERS = re.compile(r'[<>"]')


def _type_text_end(text: str, start: int) -> int | None:
    """The end of the ``!relax.name<...>`` written at ``start`` (None if unclear)."""
    position = _TYPE_NAME.match(text, start).end()  # pyright: ignore[reportOptionalMemberAccess]
    if not text.startswith("<", position):
        return position
    depth = 0
    for delimiter in _TYPE_DELIMITERS.finditer(text, position):
        char = delimiter.group()
        if char == '"':
            return None
        if char == "<":
            depth += 1
        elif text[delimiter.start() - 1] != "-":
            depth -= 1
            if depth == 0:
                return delimiter.end()
    return None


def _type_key(source: str, start: int) -> tuple[str, int] | None:
    """The text of the ``!relax.`` type written at ``start`` (its key in ``_PARSED``)
    and its end."""
    end = _type_text_end(source, start) if source.startswith("!relax.", start) else None
    return None if end is None else (source[start:end], end)


def parsed_struct_info(source: str, start: int) -> tuple[StructInfoType, int] | None:
    """The Relax type written at ``start`` of ``source`` and where it ends, when
    the same text was parsed before (see ``parse_struct_info``). A binding's type
    usually ends its line, which is tried first."""
    line_end = source.find("\n", start)
    rest = source[start : len(source) if line_end < 0 else line_end].rstrip()
    if (cached := _PARSED.get(rest)) is not None:
        return cached, start + len(rest)
    key = _type_key(source, start)
    cached = None if key is None else _PARSED.get(key[0])
    return None if cached is None else (cached, key[1])  # pyright: ignore[reportOptionalSubscript]


def parse_struct_info(parser: AttrParser) -> StructInfoType:
    """A Relax type, written ``!relax.tensor<...>`` or, nested, ``tensor<...>``."""
    start = parser.pos
    if parser._current_token.kind == MLIRTokenKind.EXCLAMATION_IDENT:  # pyright: ignore
        source = parser.lexer.input.content
        key = _type_key(source, start)
        if key is not None and (cached := _PARSED.get(key[0])) is not None:
            parser._resume_from(key[1])  # pyright: ignore[reportPrivateUsage]
            return cached
        parsed = parser.parse_type()
        if not isinstance(parsed, StructInfoType):
            parser.raise_error(f"expected a Relax type, got {parsed}", start, parser.pos)
        if key is not None and (key[1] == parser.pos or source[key[1] : parser.pos].isspace()):
            _PARSED.remember(key[0], parsed)  # pyright: ignore[reportArgumentType]
        return parsed
    word = parser.parse_optional_identifier()
    cls = STRUCT_INFO_TYPES.get(word or "")
    if cls is None:
        parser.raise_error(
            "expected a Relax type (object, prim, shape, tensor, tuple or func)", start, parser.pos
        )
    return cls.new(cls.parse_parameters(parser))


def print_struct_info(printer: Printer, sinfo: StructInfoType) -> None:
    """Print a nested Relax type without its ``!relax.`` prefix."""
    printer.print_string(sinfo.KEYWORD)
    sinfo.print_parameters(printer)


def struct_info_text(sinfo: Attribute) -> str:
    """The type as written in diagnostics: ``tensor<[n, 4], f32>``."""
    if not isinstance(sinfo, StructInfoType):
        return str(sinfo)
    text = str(sinfo)
    return text.removeprefix("!relax.")
