"""``relax.if``: branch on a boolean scalar, each branch yielding the result."""

from __future__ import annotations

from xdsl.ir import Region, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator
from xdsl.utils.exceptions import VerifyException

from ..struct_info import erase_vars, join
from ..types import PrimType, StructInfoType, TensorType, parse_struct_info, struct_info_text
from .base import BindingOp, RelaxOp, parse_body, parse_value, print_result_type, relax_type
from .functions import body_local_vars
from .traits import NoSideEffect


@irdl_op_definition
class IfOp(BindingOp):
    """``%r = relax.if %cond : T { ... relax.yield %a } else { ... relax.yield %b }``.

    The condition is a boolean scalar (a 0-d ``bool`` tensor or a ``bool`` prim
    value). The result type must not contradict the join of the branch types
    (which it is when omitted).
    """

    name = "relax.if"
    cond = operand_def()
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    result = result_def()
    traits = traits_def(NoSideEffect())

    def __init__(
        self, cond: SSAValue, then_region: Region, else_region: Region, result_type: StructInfoType
    ):
        super().__init__(
            operands=[cond], regions=[then_region, else_region], result_types=[result_type]
        )

    def branch_type(self, region: Region) -> StructInfoType:
        branch = _yielded_type(region)
        if branch is None:
            raise VerifyException("relax.if: each branch must end with relax.yield")
        return branch

    def infer_type(self) -> StructInfoType:
        cond = relax_type(self.name, self.cond, "condition")
        if not is_bool_scalar(cond):
            raise VerifyException(
                f"relax.if: the condition has type {struct_info_text(cond)}, expected a "
                "boolean scalar (tensor<[], bool> or prim<bool>)"
            )
        branches = (self.branch_type(self.then_region), self.branch_type(self.else_region))
        return join_branches(self.then_region, self.else_region, *branches)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        start = parser.pos
        cond = parse_value(parser)
        result_type = None
        if parser.parse_optional_punctuation(":") is not None:
            result_type = parse_struct_info(parser)
        then_region = parse_body(parser)
        parser.parse_keyword("else")
        else_region = parse_body(parser)
        if result_type is not None:
            return cls(cond, then_region, else_region, result_type)
        then_type, else_type = (_yielded_type(r) for r in (then_region, else_region))
        if then_type is None or else_type is None:
            parser.raise_error("relax.if: each branch must end with relax.yield", start)
        joined = join_branches(then_region, else_region, then_type, else_type)
        return cls(cond, then_region, else_region, joined)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        print_result_type(printer, self)
        printer.print_string(" ")
        printer.print_region(self.then_region)
        printer.print_string(" else ")
        printer.print_region(self.else_region)


def join_branches(
    then_region: Region, else_region: Region, then_type: StructInfoType, else_type: StructInfoType
) -> StructInfoType:
    """The join of the branch types, erased of the symbolic variables the branches
    bind themselves (they are out of scope after the ``if``)."""
    local = body_local_vars(then_region) | body_local_vars(else_region)
    return erase_vars(join(then_type, else_type), lambda name: name not in local)


def _yielded_type(region: Region) -> StructInfoType | None:
    last = region.blocks.first.last_op if len(region.blocks) == 1 else None  # pyright: ignore
    if isinstance(last, YieldOp) and isinstance(last.value.type, StructInfoType):
        return last.value.type
    return None


def is_bool_scalar(sinfo: StructInfoType) -> bool:
    """Whether a value of this type may be an ``if`` condition."""
    if isinstance(sinfo, PrimType):
        return sinfo.data_type.is_bool
    if isinstance(sinfo, TensorType):
        dtype = sinfo.data_type
        return sinfo.rank in (0, -1) and (dtype.is_bool or dtype.is_void)
    return False


@irdl_op_definition
class YieldOp(RelaxOp):
    """The value of an ``if`` branch: ``relax.yield %v``."""

    name = "relax.yield"
    value = operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(IfOp), NoSideEffect()))

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        return cls(parse_value(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
