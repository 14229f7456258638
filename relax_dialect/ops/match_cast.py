"""``relax.match_cast``: check a value against StructInfo at run time."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ..struct_info import definable_vars, never_matches
from ..types import StructInfoType, struct_info_text
from .base import BindingOp, parse_result_type, parse_value, print_result_type, relax_type
from .traits import NoSideEffect


@irdl_op_definition
class MatchCastOp(BindingOp):
    """Bind ``value`` with the StructInfo of the result type, checked at run time.

    A dimension (or prim value) of the target that is a symbolic variable not
    yet bound is a binding of that variable. The check may fail, so the
    operation is not freely removable or hoistable.
    """

    name = "relax.match_cast"
    value = operand_def()
    result = result_def()
    traits = traits_def(NoSideEffect())

    def __init__(self, value: SSAValue, target: StructInfoType):
        super().__init__(operands=[value], result_types=[target])

    @property
    def target(self) -> StructInfoType:
        return relax_type(self.name, self.result, "result")

    def defined_vars(self) -> set[str]:
        """Symbolic variables this cast may bind (those in binding position)."""
        return definable_vars([self.target])

    def infer_type(self) -> StructInfoType:
        return self.target

    def verify_(self) -> None:
        source = relax_type(self.name, self.value)
        target = self.target
        if never_matches(source, target):
            raise VerifyException(
                f"relax.match_cast: a value of type {struct_info_text(source)} can never "
                f"match {struct_info_text(target)}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> MatchCastOp:
        value = parse_value(parser)
        return cls(value, parse_result_type(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        print_result_type(printer, self)
