"""The pieces StableHLO's pretty forms are made of: operand lists, keyword
clauses (``dims = [1, 0]``, ``dim = 0``, ``precision = [DEFAULT, DEFAULT]``) and
type signatures (one type for every operand and the result, a function type,
``select``'s condition and value types, one type per operand and result)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from .attributes import Precision, PrecisionAttr, parse_int_list


def array(values: Sequence[int]) -> DenseArrayBase:
    """``array<i64: ...>``, as StableHLO stores dimension lists."""
    return DenseArrayBase.from_list(i64, tuple(values))


def integer(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


def int_list(attribute: Attribute | None) -> tuple[int, ...] | None:
    """The integers of ``array<i64: ...>`` (or of a list of integers); None for
    anything else."""
    if isinstance(attribute, DenseArrayBase) and isinstance(attribute.elt_type, IntegerType):
        return tuple(int(v) for v in attribute.get_values())
    if isinstance(attribute, ArrayAttr) and all(isinstance(a, IntegerAttr) for a in attribute.data):
        return tuple(a.value.data for a in attribute.data)  # type: ignore[union-attr]
    return None


class Kind(Enum):
    """What a clause's value is and how it is stored."""

    INT = "an integer"
    ARRAY = "a list of integers"
    PRECISION = "a list of precisions"

    def parse(self, parser: Parser) -> Attribute:
        if self is Kind.INT:
            return integer(parser.parse_integer(allow_boolean=False))
        if self is Kind.ARRAY:
            return array(parse_int_list(parser))
        return ArrayAttr(
            parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: PrecisionAttr(parser.parse_str_enum(Precision))
            )
        )

    def text(self, attribute: Attribute) -> str | None:
        """The clause's value as written, or None when the stored attribute is
        not of this kind (then it is printed in the attribute dictionary)."""
        if self is Kind.INT:
            return str(attribute.value.data) if isinstance(attribute, IntegerAttr) else None
        if self is Kind.ARRAY:
            values = int_list(attribute) if isinstance(attribute, DenseArrayBase) else None
            return None if values is None else f"[{', '.join(map(str, values))}]"
        if isinstance(attribute, ArrayAttr) and all(
            isinstance(a, PrecisionAttr) for a in attribute.data
        ):
            return f"[{', '.join(a.data.value for a in attribute.data)}]"  # type: ignore[union-attr]
        return None


@dataclass(frozen=True)
class Clause:
    """``keyword = value`` after the operands, stored as the property ``property``."""

    keyword: str
    property: str
    kind: Kind = Kind.ARRAY
    optional: bool = False


def parse_operands(parser: Parser) -> tuple[list[UnresolvedOperand], bool]:
    """``%a, %b``, possibly none; and whether a comma after them was read
    (the clauses follow it)."""
    operands: list[UnresolvedOperand] = []
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return operands, False
    operands.append(first)
    while parser.parse_optional_punctuation(",") is not None:
        operand = parser.parse_optional_unresolved_operand()
        if operand is None:
            return operands, True
        operands.append(operand)
    return operands, False


def parse_clauses(
    parser: Parser, clauses: Sequence[Clause], comma_read: bool, operands: int
) -> dict[str, Attribute]:
    """The clauses, in their order, each after a comma (the first without one
    when there are no operands); the optional ones may be left out."""
    found: dict[str, Attribute] = {}
    pending = comma_read or operands == 0
    for clause in clauses:
        if not pending and parser.parse_optional_punctuation(",") is None:
            break
        pending = True
        if parser.parse_optional_keyword(clause.keyword) is None:
            if clause.optional:
                continue
            parser.raise_error(f"expected '{clause.keyword} = ...'")
        parser.parse_punctuation("=")
        found[clause.property] = clause.kind.parse(parser)
        pending = False
    if pending and (comma_read or found):
        parser.raise_error("expected a clause after ','")
    missing = [c.keyword for c in clauses if not c.optional and c.property not in found]
    if missing:
        parser.raise_error(f"expected '{missing[0]} = ...'")
    return found


def print_clauses(
    printer: Printer, clauses: Sequence[Clause], properties: dict[str, Attribute], operands: int
) -> set[str]:
    """Prints the clauses whose properties are set as their kind writes them;
    returns the properties printed."""
    printed: set[str] = set()
    for clause in clauses:
        attribute = properties.get(clause.property)
        text = None if attribute is None else clause.kind.text(attribute)
        if text is None:
            continue
        separator = ", " if operands or printed else " "
        printer.print_string(f"{separator}{clause.keyword} = {text}")
        printed.add(clause.property)
    return printed


class Types(Enum):
    """How a pretty form writes the types after its ``:``."""

    SAME = "one type, or a function type"
    """``: tensor<4xf32>`` when every operand and the result have it."""
    FUNCTIONAL = "a function type"
    SELECT = "the condition's and the values' types, or a function type"
    PAIRWISE = "one type per operand"
    RESULT = "the result's type"

    def parse(self, parser: Parser, operands: int) -> tuple[list[Attribute], list[Attribute]]:
        """The operands' and the results' types."""
        if self is Types.RESULT:
            return [], [parser.parse_type()]
        if self is Types.PAIRWISE:
            types = (
                parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                if operands
                else []
            )
            return types, list(types)
        if self is Types.FUNCTIONAL or parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
            function = parser.parse_function_type()
            return list(function.inputs.data), list(function.outputs.data)
        first = parser.parse_type()
        if self is Types.SELECT and parser.parse_optional_punctuation(",") is not None:
            value = parser.parse_type()
            return [first] + [value] * (operands - 1), [value]
        return [first] * operands, [first]

    def print(
        self,
        printer: Printer,
        operand_types: Sequence[Attribute],
        result_types: Sequence[Attribute],
    ) -> None:
        printer.print_string(" : ")
        if self is Types.RESULT:
            printer.print_attribute(result_types[0])
            return
        if self is Types.PAIRWISE:
            printer.print_list(result_types, printer.print_attribute)
            return
        if self is not Types.FUNCTIONAL and len(result_types) == 1:
            values = operand_types[1:] if self is Types.SELECT else operand_types
            if all(t == result_types[0] for t in values):
                if self is Types.SELECT:
                    printer.print_attribute(operand_types[0])
                    printer.print_string(", ")
                printer.print_attribute(result_types[0])
                return
        printer.print_function_type(operand_types, result_types)


def resolve(
    parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute]
) -> list[SSAValue]:
    """The operands' values, each of its type."""
    if len(operands) != len(types):
        parser.raise_error(f"expected {len(operands)} operand types but found {len(types)}")
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]
