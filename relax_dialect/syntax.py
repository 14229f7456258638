"""Reading and writing ``PrimExpr``s, shapes and data types in MLIR text."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from .dtype import DataType
from .prim_expr import (
    ARITY,
    Apply,
    BoolImm,
    FloatImm,
    IntImm,
    PrimExpr,
    Var,
    int64_problem,
    to_text,
)

_INFIX_MULTIPLICATIVE = {"*": "mul", "floordiv": "floordiv", "floormod": "floormod"}
_FLOAT_WORDS = {"inf": float("inf"), "nan": float("nan")}


def parse_prim_expr(parser: AttrParser) -> PrimExpr:
    """``expr ::= term (('+' | '-') term)*``."""
    expr = _parse_term(parser)
    while True:
        if parser.parse_optional_punctuation("+") is not None:
            expr = Apply("add", (expr, _parse_term(parser)))
        elif parser.parse_optional_punctuation("-") is not None:
            expr = Apply("sub", (expr, _parse_term(parser)))
        else:
            return expr


def _parse_term(parser: AttrParser) -> PrimExpr:
    """``term ::= primary (('*' | 'floordiv' | 'floormod') primary)*``."""
    expr = _parse_primary(parser)
    while True:
        if parser.parse_optional_punctuation("*") is not None:
            op = "mul"
        elif (word := parser.parse_optional_keyword_in(("floordiv", "floormod"))) is not None:
            op = word
        else:
            return expr
        expr = Apply(op, (expr, _parse_primary(parser)))


def _parse_primary(parser: AttrParser) -> PrimExpr:
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if token.kind == MLIRTokenKind.MINUS:
        parser.parse_punctuation("-")
        inner = _parse_primary(parser)
        if isinstance(inner, IntImm | FloatImm):
            return type(inner)(-inner.value)  # pyright: ignore[reportArgumentType]
        return Apply("mul", (IntImm(-1), inner))
    if token.kind == MLIRTokenKind.INTEGER_LIT:
        start = parser.pos
        value = parser.parse_integer(allow_boolean=False, allow_negative=False)
        if (problem := int64_problem(value)) is not None:
            parser.raise_error(problem, start, parser.pos)
        return IntImm(value)
    if token.kind == MLIRTokenKind.FLOAT_LIT:
        return FloatImm(parser.parse_float(allow_negative=False))
    if parser.parse_optional_punctuation("(") is not None:
        expr = parse_prim_expr(parser)
        parser.parse_punctuation(")", " to close the parenthesised expression")
        return expr
    start = parser.pos
    name = parser.parse_optional_identifier()
    if name is None:
        parser.raise_error("expected a symbolic expression (integer, name or function call)")
    if name in ("true", "false"):
        return BoolImm(name == "true")
    if name in _FLOAT_WORDS:
        return FloatImm(_FLOAT_WORDS[name])
    if parser.parse_optional_punctuation("(") is None:
        return Var(name)
    if name not in ARITY or name in ("add", "sub", "mul", "floordiv", "floormod"):
        parser.raise_error(f"unknown function '{name}' in symbolic expression", start, parser.pos)
    args = [parse_prim_expr(parser)]
    while parser.parse_optional_punctuation(",") is not None:
        args.append(parse_prim_expr(parser))
    parser.parse_punctuation(")", f" to close the arguments of '{name}'")
    if len(args) != ARITY[name]:
        parser.raise_error(
            f"'{name}' takes {ARITY[name]} arguments, got {len(args)}", start, parser.pos
        )
    return Apply(name, tuple(args))


def parse_shape(parser: AttrParser) -> tuple[PrimExpr, ...]:
    """``shape ::= '[' (expr (',' expr)*)? ']'`` with integer-valued dimensions."""
    dims = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_dimension(parser)
    )
    return tuple(dims)


def _parse_dimension(parser: AttrParser) -> PrimExpr:
    start = parser.pos
    dim = parse_prim_expr(parser)
    if dim.kind != "int":
        parser.raise_error(f"shape dimension '{dim}' is not an integer", start, parser.pos)
    return dim


def parse_dtype(parser: AttrParser) -> DataType:
    """A data type spelling such as ``f32``, ``i64``, ``bool`` or ``void``."""
    start = parser.pos
    word = parser.parse_optional_identifier()
    dtype = None if word is None else DataType.parse(word)
    if dtype is None:
        parser.raise_error("expected a data type (e.g. f32, i64, bool, void)", start, parser.pos)
    return dtype


def print_shape(printer: Printer, dims: Sequence[PrimExpr]) -> None:
    printer.print_string("[" + ", ".join(to_text(d) for d in dims) + "]")
