"""The CHLO operations JAX emits (``chlo.erf``, ``chlo.top_k``...): operations of
XLA's client library that StableHLO consumers decompose."""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import IntegerAttr
from xdsl.parser import Parser
from xdsl.printer import Printer

from .ops import Relax, StableHLOOp, named_classes, print_attribute_dict
from .syntax import integer, resolve


class ChloUnaryOp(StableHLOOp):
    """``chlo.erf %x : tensor<...> -> tensor<...>``."""

    OPERANDS = 1
    RELAX: ClassVar[Relax] = None

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(resolve(parser, [operand], [operand_type]), [result_type], attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        print_attribute_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.operand_types[0])
        printer.print_string(" -> ")
        printer.print_attribute(self.result_types[0])


UNARY = named_classes(
    ChloUnaryOp,
    "chlo",
    {
        "erf": "relax.erf",
        "erfc": None,
        "erf_inv": None,
        "lgamma": None,
        "digamma": None,
        "tan": "relax.tan",
        "sinh": "relax.sinh",
        "cosh": "relax.cosh",
        "asin": "relax.asin",
        "acos": "relax.acos",
        "atan": "relax.atan",
        "asinh": "relax.asinh",
        "acosh": "relax.acosh",
        "atanh": "relax.atanh",
        "is_inf": "relax.isinf",
        "is_neg_inf": None,
        "is_pos_inf": None,
    },
)


class TopKOp(StableHLOOp):
    """``chlo.top_k(%x, k = 2) : T -> (values, indices)``: the ``k`` largest of
    the last dimension, largest first."""

    name = "chlo.top_k"
    OPERANDS = 1
    RESULTS = 2
    REQUIRED = ("k",)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        attributes = {"k": integer(parser.parse_integer(allow_boolean=False))}
        parser.parse_punctuation(")")
        attributes |= parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        return cls.build(resolve(parser, [operand], [operand_type]), result_types, attributes)

    def print(self, printer: Printer) -> None:
        k = self.properties.get("k")
        if not isinstance(k, IntegerAttr) or len(self.results) != 2:
            return printer.print_op_with_default_format(self)
        printer.print_string("(")
        printer.print_operand(self.operands[0])
        printer.print_string(f", k = {k.value.data})")
        print_attribute_dict(printer, self, {"k"})
        printer.print_string(" : ")
        printer.print_attribute(self.operand_types[0])
        printer.print_string(" -> (")
        printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(")")


OPERATIONS: tuple[type[StableHLOOp], ...] = (*UNARY, TopKOp)
