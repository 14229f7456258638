"""``relax.alias``: a variable bound to another variable (TVM's ``VarBinding``
whose value is a ``Var``, ``y = x``)."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..struct_info import is_base_of
from ..types import StructInfoType, struct_info_text
from .base import BindingOp, parse_or_infer_type, parse_value, print_result_type, relax_type


@irdl_op_definition
class AliasOp(BindingOp):
    """Bind ``value`` to a second name: the result is the value itself. Its type
    is the value's, or one the value's type statically satisfies (a weaker
    annotation); a more specific one needs ``relax.match_cast``."""

    name = "relax.alias"
    value = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: SSAValue, result_type: StructInfoType | None = None):
        super().__init__(operands=[value], result_types=[result_type or value.type])

    def infer_type(self) -> StructInfoType:
        return relax_type(self.name, self.value)

    def verify_(self) -> None:
        declared, inferred = self.result_type, self.infer_type()
        if not isinstance(declared, StructInfoType) or not is_base_of(declared, inferred):
            raise VerifyException(
                f"relax.alias: a value of type {struct_info_text(inferred)} is not always "
                f"a {struct_info_text(declared)}; use relax.match_cast to check it at run time"
            )

    @classmethod
    def parse(cls, parser: Parser) -> AliasOp:
        start = parser.pos
        value = parse_value(parser)
        return parse_or_infer_type(parser, start, lambda t: cls(value, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        print_result_type(printer, self)
