"""``relax.dataflow``: a block of pure, control-flow-free bindings.

Values defined inside are the spec's ``DataflowVar``s, visible only in the
block. ``relax.output`` lists those that leave it; they become the block's
results (ordinary ``Var``s) and keep their types.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Region, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    lazy_traits_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator
from xdsl.utils.exceptions import VerifyException

from .base import RelaxOp, parse_body, parse_value, print_values
from .traits import Canonicalized, NoSideEffect


@irdl_op_definition
class DataflowOp(RelaxOp):
    """``%a, %b = relax.dataflow { ... relax.output %x, %y }``."""

    name = "relax.dataflow"
    body = region_def("single_block")
    outputs = var_result_def()
    traits = traits_def(NoSideEffect(), Canonicalized())

    def __init__(self, body: Region):
        last = body.blocks.first.last_op if len(body.blocks) == 1 else None  # pyright: ignore
        types = [v.type for v in last.operands] if isinstance(last, OutputOp) else []
        super().__init__(regions=[body], result_types=[types])

    @property
    def output_op(self) -> OutputOp:
        last = self.body.blocks.first.last_op if len(self.body.blocks) == 1 else None  # pyright: ignore
        if not isinstance(last, OutputOp):
            raise VerifyException("relax.dataflow: the block must end with relax.output")
        return last

    def verify_(self) -> None:
        exported = self.output_op.values
        if [v.type for v in exported] != [r.type for r in self.outputs]:
            raise VerifyException(
                "relax.dataflow: result types must be the types of the relax.output values"
            )

    @classmethod
    def parse(cls, parser: Parser) -> DataflowOp:
        return cls(parse_body(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.body)


@irdl_op_definition
class OutputOp(RelaxOp):
    """The values leaving a dataflow block: ``relax.output %x, %y``."""

    name = "relax.output"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(DataflowOp), NoSideEffect()))

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> OutputOp:
        values = []
        if parser._current_token.text.startswith("%"):  # pyright: ignore[reportPrivateUsage]
            values = [parse_value(parser)]
            while parser.parse_optional_punctuation(",") is not None:
                values.append(parse_value(parser))
        return cls(values)

    def print(self, printer: Printer) -> None:
        if self.values:
            printer.print_string(" ")
            print_values(printer, self.values)
