"""What every Relax operation shares: result inference, syntax helpers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import AnyAttr, IRDLOperation, RangeLengthConstraint, RangeOf, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException

from ..bounded_memo import BoundedMemo
from ..struct_info import Check, base_check
from ..types import ObjectType, StructInfoType, parse_struct_info, struct_info_text
from .traits import Canonicalized


class RelaxOp(IRDLOperation):
    """Base of the dialect's operations (each declares its purity with a trait,
    see ``ops.traits``)."""


class BindingOp(RelaxOp):
    """An operation binding one Relax value: a ``VarBinding`` of the spec.

    Its result type is the binding's StructInfo. It must not contradict what
    the spec's derivation rules infer from the operands; it may be weaker
    (a less specific annotation), as TVM allows. ``canonicalize`` applies its
    patterns (``relax_dialect.canonicalization``).
    """

    traits = traits_def(Canonicalized())

    def infer_type(self) -> StructInfoType:
        """The StructInfo the derivation rules give the result."""
        raise NotImplementedError

    @property
    def result_type(self) -> Attribute:
        return self.results[0].type

    def verify_(self) -> None:
        check_annotation(self.name, self.result_type, self.infer_type())


def check_annotation(op_name: str, declared: Attribute, inferred: StructInfoType) -> None:
    """Reject a result type that provably contradicts the inferred one."""
    if not isinstance(declared, StructInfoType):
        raise VerifyException(f"{op_name}: result must have a Relax type, got {declared}")
    contradicts = base_check(declared, inferred) == Check.FAIL_STATIC or (
        isinstance(inferred, ObjectType) and not isinstance(declared, ObjectType)
    )
    if contradicts:
        raise VerifyException(
            f"{op_name}: result type {struct_info_text(declared)} contradicts the "
            f"inferred type {struct_info_text(inferred)}"
            + (
                ""
                if isinstance(declared, ObjectType)
                else "; use relax.match_cast to check it at run time"
            )
        )


_PASSED: BoundedMemo[tuple[object, ...], bool] = BoundedMemo(1 << 16)
"""Signatures (see ``_definition_signature``) of operations that passed ``verify_definition``."""


def verify_definition(op: IRDLOperation) -> None:
    """xDSL's checks of ``op`` against its definition (operand and result counts,
    properties, traits). Builders check every binding they make and the same few
    signatures recur, so an operation is not checked again when one with the same
    signature passed."""
    signature = _definition_signature(op)
    if signature is not None and signature in _PASSED:
        return
    op.get_irdl_definition().verify(op)
    if signature is not None:
        _PASSED.remember(signature, True)


def _definition_signature(op: IRDLOperation) -> tuple[object, ...] | None:
    """All that the checks of ``verify_definition`` look at when its class takes
    operands and results of any type and has no regions, successors or trait
    verifiers; None for other operations."""
    if not _counts_only(type(op)) or op.regions or op.successors:
        return None
    return (
        type(op),
        len(op.operands),
        len(op.results),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
    )


@cache
def _counts_only(cls: type[IRDLOperation]) -> bool:
    definition = cls.get_irdl_definition()
    return (
        not definition.regions
        and not definition.successors
        and all(_any_type(d.constr) for _, d in (*definition.operands, *definition.results))
        and all(type(trait).verify is OpTrait.verify for trait in definition.traits)
    )


def _any_type(constraint: object) -> bool:
    if isinstance(constraint, RangeLengthConstraint):
        constraint = constraint.constraint
    return isinstance(constraint, RangeOf) and isinstance(constraint.constr, AnyAttr)


def relax_type(op_name: str, value: SSAValue, what: str = "operand") -> StructInfoType:
    """The StructInfo of ``value`` (an error if it has a non-Relax type)."""
    if not isinstance(value.type, StructInfoType):
        raise VerifyException(f"{op_name}: {what} must have a Relax type, got {value.type}")
    return value.type


# --- custom syntax helpers ---------------------------------------------------


def parse_value(parser: Parser) -> SSAValue:
    """An operand that must already be defined (custom syntax has no types)."""
    operand = parser.parse_unresolved_operand()
    name = operand.operand_name
    values = parser.ssa_values.get(name)
    if values is None:
        forward = parser.forward_ssa_references.get(name, {}).get(operand.index)
        if forward is not None:
            return forward
        parser.raise_error(undefined_value_message(parser, name), operand.span)
    if operand.index >= len(values):
        parser.raise_error(f"value '%{name}' has no result #{operand.index}", operand.span)
    return values[operand.index]


def undefined_value_message(parser: Parser, name: str) -> str:
    if name in getattr(parser, "pending_results", ()):
        return (
            f"%{name} is used inside its own definition (well-formedness rule 2; a "
            "recursive lambda refers to itself as recursive(%self))"
        )
    if name in getattr(parser, "dataflow_names", ()):
        return (
            f"%{name} is a dataflow variable and cannot be used outside its dataflow block; "
            "list it in relax.output (well-formedness rule 1)"
        )
    return (
        f"use of undefined value %{name} (well-formedness rule 3: a variable must be "
        "bound before it is used, in a scope that encloses the use)"
    )


def parse_values(parser: Parser, delimiter: Parser.Delimiter) -> list[SSAValue]:
    return parser.parse_comma_separated_list(delimiter, lambda: parse_value(parser))


def parse_result_type(parser: Parser) -> StructInfoType:
    """``: type``, the binding's StructInfo."""
    parser.parse_punctuation(":", " before the result type")
    return parse_struct_info(parser)


def build_inferred(build: Callable[[StructInfoType], BindingOp]) -> BindingOp:
    """Build a binding whose result type is the inferred one (raises
    ``VerifyException`` when the operation is malformed or inference fails)."""
    probe = build(ObjectType())
    try:
        verify_definition(probe)
        inferred = probe.infer_type()
    finally:
        probe.erase()
    return build(inferred)


def parse_body(parser: Parser, arguments: Sequence[Parser.Argument] | None = None) -> Region:
    """A region with exactly one block (``{}`` is one empty block)."""
    start = parser.pos
    region = parser.parse_region(arguments)
    if not region.blocks:
        region.add_block(Block())
    elif len(region.blocks) > 1:
        parser.raise_error("a Relax region has a single block (no block labels)", start)
    return region


def parse_or_infer_type(
    parser: Parser, start: int, build: Callable[[StructInfoType], BindingOp]
) -> BindingOp:
    """``: type`` gives the result type; without it, the inferred type is used."""
    if parser.parse_optional_punctuation(":") is not None:
        return build(parse_struct_info(parser))
    try:
        return build_inferred(build)
    except VerifyException as error:
        starts = getattr(parser, "operation_starts", None)
        parser.raise_error(str(error), starts[-1] if starts else start)


def print_values(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def print_result_type(printer: Printer, op: IRDLOperation) -> None:
    printer.print_string(" : ")
    printer.print_attribute(op.results[0].type)
