"""Calls: of global functions, of function values, of TIR-style functions, of packed functions.

``relax.call @f(...)`` calls a global Relax function; ``relax.invoke %f(...)``
calls a closure, packed-function value or operator reference;
``relax.call_tir @g(...)`` calls a destination-passing ``func.func``;
``relax.call_packed``, ``relax.call_pure_packed`` and ``relax.call_dps_packed``
call external packed functions by name. The result type of a packed call is
its ``sinfo_args`` (TVM's ``infer_by_sinfo_args``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerType,
    ShapedType,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..analysis.symbols import lookup_symbol
from ..builtin_types import element_type_matches
from ..struct_info import CallMismatch, derive_call_ret, is_base_of
from ..types import (
    FuncType,
    PrimType,
    ShapeType,
    StructInfoType,
    TensorType,
    TupleType,
    struct_info_text,
)
from .base import (
    BindingOp,
    parse_or_infer_type,
    parse_result_type,
    parse_value,
    parse_values,
    print_result_type,
    print_values,
    relax_type,
)
from .operator import SEGMENTS, parse_attributes, print_attributes, python_value
from .references import OpRefOp, function_type_of
from .traits import Impure, InPlace, Purity


def _arg_types(op_name: str, args: Sequence[SSAValue]) -> list[StructInfoType]:
    return [relax_type(op_name, a, f"argument {i}") for i, a in enumerate(args)]


def _derive(what: str, callee: FuncType, op: BindingOp, args: Sequence[SSAValue]) -> StructInfoType:
    try:
        return derive_call_ret(callee, _arg_types(op.name, args), relax_type(what, op.results[0]))
    except CallMismatch as mismatch:
        raise VerifyException(f"{what}: {mismatch}") from None


def _print_call(printer: Printer, callee: str, args: Sequence[SSAValue]) -> None:
    printer.print_string(f" {callee}(")
    print_values(printer, args)
    printer.print_string(")")


@dataclass(frozen=True)
class CallPurity(Purity):
    """A call is as pure as the function it calls (impure when that is missing)."""

    def is_pure(self, op: Operation) -> bool:
        assert isinstance(op, CallOp)
        try:
            return op.callee_type().is_pure
        except VerifyException:
            return False


@irdl_op_definition
class CallOp(BindingOp):
    """A call of a global Relax function: ``relax.call @f(%x)``."""

    name = "relax.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    result = result_def()
    traits = traits_def(CallPurity())

    def __init__(self, callee: str, args: Sequence[SSAValue], result_type: StructInfoType):
        super().__init__(
            operands=[args],
            properties={"callee": SymbolRefAttr(callee)},
            result_types=[result_type],
        )

    @property
    def callee_name(self) -> str:
        return self.callee.root_reference.data

    def callee_type(self) -> FuncType:
        return function_type_of(self, self.callee_name, f"relax.call @{self.callee_name}")

    def infer_type(self) -> StructInfoType:
        what = f"relax.call @{self.callee_name}"
        return _derive(what, self.callee_type(), self, self.args)

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_symbol_name().data
        args = parse_values(parser, parser.Delimiter.PAREN)
        return cls(callee, args, parse_result_type(parser))

    def print(self, printer: Printer) -> None:
        _print_call(printer, f"@{self.callee_name}", self.args)
        print_result_type(printer, self)


def calls_purely(callee: Attribute) -> bool:
    """Whether calling a value of type ``callee`` is pure: a pure function type
    without a derive function (which would make its purity unknown)."""
    return isinstance(callee, FuncType) and callee.is_pure and callee.derive is None


@dataclass(frozen=True)
class InvokePurity(Purity):
    """A call of a function value is as pure as the operator it names, or else as
    its callee's type says (``calls_purely``)."""

    def is_pure(self, op: Operation) -> bool:
        assert isinstance(op, InvokeOp)
        if (ref := op.operator_ref()) is not None:
            return ref.operator().has_trait(Pure)
        return calls_purely(op.callee.type)


@irdl_op_definition
class InvokeOp(BindingOp):
    """A call of a function value (closure, packed function or operator reference):
    ``relax.invoke %f(%x)``."""

    name = "relax.invoke"
    callee = operand_def()
    args = var_operand_def()
    result = result_def()
    traits = traits_def(InvokePurity())

    def __init__(self, callee: SSAValue, args: Sequence[SSAValue], result_type: StructInfoType):
        super().__init__(operands=[callee, args], result_types=[result_type])

    def operator_ref(self) -> OpRefOp | None:
        """The ``relax.op_ref`` defining the callee, if it is one."""
        owner = self.callee.owner
        return owner if isinstance(owner, OpRefOp) else None

    def infer_type(self) -> StructInfoType:
        if (ref := self.operator_ref()) is not None:
            return self._infer_operator(ref)
        callee = relax_type(self.name, self.callee, "callee")
        if not isinstance(callee, FuncType):
            raise VerifyException(
                f"relax.invoke: the callee has type {struct_info_text(callee)}, expected a function"
            )
        return _derive(self.name, callee, self, self.args)

    def _infer_operator(self, ref: OpRefOp) -> StructInfoType:
        operator = ref.operator()
        try:
            call = operator.create(operands=list(self.args), result_types=[self.result.type])
            return call.infer_type()  # pyright: ignore[reportAttributeAccessIssue]
        except (AttributeError, KeyError, ValueError) as error:
            raise VerifyException(
                f"relax.invoke: operator '{ref.op_name.data}' cannot be called through "
                f"relax.op_ref with these arguments ({error})"
            ) from None

    @classmethod
    def parse(cls, parser: Parser) -> InvokeOp:
        start = parser.pos
        callee = parse_value(parser)
        args = parse_values(parser, parser.Delimiter.PAREN)
        return parse_or_infer_type(parser, start, lambda t: cls(callee, args, t))  # pyright: ignore

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.callee)
        printer.print_string("(")
        print_values(printer, self.args)
        printer.print_string(")")
        print_result_type(printer, self)


def output_tensors(op_name: str, declared: Attribute) -> list[TensorType]:
    """The tensors a destination-passing call allocates: its result type, a
    tensor or a tuple of tensors, each with a known shape and data type."""
    outputs = declared.types if isinstance(declared, TupleType) else (declared,)
    tensors = []
    for out in outputs:
        if not (isinstance(out, TensorType) and out.dims is not None and not out.data_type.is_void):
            raise VerifyException(
                f"{op_name}: output type {struct_info_text(out)} must be a tensor with a "
                "known shape and data type"
            )
        tensors.append(out)
    return tensors


class TIRCallBase(BindingOp):
    """A destination-passing call of a ``func.func`` (``call_tir`` and variants)."""

    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    tir_vars = opt_operand_def()
    result = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        callee: str,
        args: Sequence[SSAValue],
        result_type: StructInfoType,
        tir_vars: SSAValue | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[args, [] if tir_vars is None else [tir_vars]],
            properties={"callee": SymbolRefAttr(callee), **(attributes or {})},
            result_types=[result_type],
        )

    @property
    def callee_name(self) -> str:
        return self.callee.root_reference.data

    def infer_type(self) -> StructInfoType:
        what = f"{self.name} @{self.callee_name}"
        outputs = output_tensors(what, self.result.type)
        args = _arg_types(self.name, self.args)
        for index, arg in enumerate(args):
            if not isinstance(arg, TensorType | PrimType):
                raise VerifyException(
                    f"{what}: argument {index} has type {struct_info_text(arg)}, expected a "
                    "tensor or prim value"
                )
        n_vars = 0
        if self.tir_vars is not None:
            shape = relax_type(self.name, self.tir_vars, "tir_vars")
            if not isinstance(shape, ShapeType) or shape.rank < 0:
                raise VerifyException(f"{what}: tir_vars must be a shape of known rank")
            n_vars = shape.rank
        callee = lookup_symbol(self, self.callee_name)
        if not isinstance(callee, FuncOp):
            problem = "is not a func.func" if callee is not None else "is not defined"
            raise VerifyException(f"{what}: @{self.callee_name} {problem}")
        _check_dps_signature(what, callee, args, n_vars, outputs)
        return relax_type(self.name, self.result, "result")

    @classmethod
    def parse(cls, parser: Parser) -> TIRCallBase:
        callee = parser.parse_symbol_name().data
        args = parse_values(parser, parser.Delimiter.PAREN)
        tir_vars = None
        if parser.parse_optional_keyword("tir_vars") is not None:
            tir_vars = parse_value(parser)
        attributes = parse_attributes(parser)
        return cls(callee, args, parse_result_type(parser), tir_vars, attributes)

    def print(self, printer: Printer) -> None:
        _print_call(printer, f"@{self.callee_name}", self.args)
        if self.tir_vars is not None:
            printer.print_string(" tir_vars ")
            printer.print_operand(self.tir_vars)
        print_attributes(printer, self.properties, exclude=("callee", SEGMENTS))
        print_result_type(printer, self)


@irdl_op_definition
class CallTIROp(TIRCallBase):
    """Call a destination-passing ``func.func`` with freshly allocated outputs:
    ``relax.call_tir @f(%x, %y) tir_vars %s : !relax.tensor<[n], f32>``.

    The callee takes the arguments, then the ``tir_vars`` dimensions as
    ``index`` values, then one output tensor per result tensor, and returns the
    outputs (or nothing, when it writes into memrefs).
    """

    name = "relax.call_tir"


def inplace_indices(op: BindingOp, outputs: Sequence[StructInfoType], n_args: int) -> list[int]:
    """The ``inplace_indices`` attribute, checked: one index per output, each -1
    (a fresh output) or a distinct argument position, at least one in place."""
    trait = op.get_trait(InPlace)
    assert trait is not None
    indices = trait.outputs(op)
    if len(indices) != len(outputs):
        raise VerifyException(
            f"{op.name}: {len(indices)} in-place indices for {len(outputs)} outputs"
        )
    for index in indices:
        if not -1 <= index < n_args:
            raise VerifyException(
                f"{op.name}: in-place index {index} is out of range (-1 to {n_args - 1})"
            )
    mutated = [i for i in indices if i != -1]
    if len(set(mutated)) != len(mutated):
        raise VerifyException(f"{op.name}: in-place indices {indices} repeat an argument")
    if not mutated:
        raise VerifyException(f"{op.name}: no output is in place (all indices are -1)")
    return indices


@irdl_op_definition
class CallTIRInplaceOp(TIRCallBase):
    """``relax.call_tir`` whose outputs at ``inplace_indices`` (one per output; -1
    for a fresh one) are the corresponding arguments, mutated by the callee:
    ``relax.call_tir_inplace @f(%x) {inplace_indices = [0]} : T``.

    The callee takes the arguments, the ``tir_vars``, then every output (an
    in-place output is the argument itself) and returns the outputs. An in-place
    output has the argument's shape and data type.
    """

    name = "relax.call_tir_inplace"
    inplace_indices = prop_def(DenseArrayBase)
    traits = traits_def(Pure(), InPlace())

    def infer_type(self) -> StructInfoType:
        declared = super().infer_type()
        outputs = output_tensors(self.name, declared)
        args = _arg_types(self.name, self.args)
        for output, index in zip(outputs, inplace_indices(self, outputs, len(args)), strict=True):
            if index != -1 and not (
                isinstance(args[index], TensorType) and is_base_of(output, args[index])
            ):
                raise VerifyException(
                    f"{self.name}: output {struct_info_text(output)} is argument {index}, of "
                    f"type {struct_info_text(args[index])}: the shape and data type must agree"
                )
        return declared


def _check_dps_signature(
    what: str,
    callee: FuncOp,
    args: Sequence[StructInfoType],
    n_vars: int,
    outputs: Sequence[TensorType],
) -> None:
    inputs = callee.function_type.inputs.data
    expected = len(args) + n_vars + len(outputs)
    if len(inputs) != expected:
        raise VerifyException(
            f"{what}: the callee takes {len(inputs)} arguments, expected {expected} "
            f"({len(args)} inputs, {n_vars} tir_vars, {len(outputs)} outputs)"
        )
    relax_side = [*args, *([None] * n_vars), *outputs]
    for position, (relax, builtin) in enumerate(zip(relax_side, inputs, strict=True)):
        if problem := _parameter_problem(relax, builtin):
            raise VerifyException(f"{what}: callee parameter {position} {problem}")
    results = callee.function_type.outputs.data
    if results and list(results) != list(inputs[len(inputs) - len(outputs) :]):
        raise VerifyException(f"{what}: the callee must return its output tensors (or nothing)")


def _parameter_problem(relax: StructInfoType | None, builtin: Attribute) -> str | None:
    if relax is None:
        if isinstance(builtin, IndexType | IntegerType):
            return None
        return f"has type {builtin}, expected index for a tir_vars dimension"
    if isinstance(relax, PrimType):
        if isinstance(builtin, ShapedType):
            return f"has type {builtin}, expected a scalar for {struct_info_text(relax)}"
        return None
    assert isinstance(relax, TensorType)
    if not isinstance(builtin, ShapedType):
        return f"has type {builtin}, expected a tensor for {struct_info_text(relax)}"
    shape = builtin.get_shape()
    if relax.rank >= 0 and relax.rank != len(shape):
        return f"has rank {len(shape)}, but the Relax value has type {struct_info_text(relax)}"
    element = builtin.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    if not relax.data_type.is_void and not element_type_matches(relax.data_type, element):
        return f"has element type {element}, but the Relax value has type {struct_info_text(relax)}"
    for dim, static in zip(relax.dims or (), shape, strict=False):
        if static >= 0 and getattr(dim, "value", static) != static:
            return f"has static size {static} where the Relax value has {dim}"
    return None


class PackedCallOp(BindingOp):
    """A call of an external packed function named by ``callee``."""

    callee = prop_def(StringAttr)
    args = var_operand_def()
    result = result_def()

    def __init__(self, callee: str, args: Sequence[SSAValue], result_type: StructInfoType):
        super().__init__(
            operands=[args],
            properties={"callee": StringAttr(callee)},
            result_types=[result_type],
        )

    def infer_type(self) -> StructInfoType:
        _arg_types(self.name, self.args)
        return relax_type(self.name, self.results[0], "result")

    @classmethod
    def parse(cls, parser: Parser) -> PackedCallOp:
        callee = parser.parse_str_literal()
        args = parse_values(parser, parser.Delimiter.PAREN)
        attributes = parse_attributes(parser)
        op = cls(callee, args, parse_result_type(parser))
        op.properties.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.callee.data)
        printer.print_string("(")
        print_values(printer, self.args)
        printer.print_string(")")
        print_attributes(printer, self.properties, exclude=("callee",))
        print_result_type(printer, self)


@irdl_op_definition
class CallPackedOp(PackedCallOp):
    """An impure call of a packed function: ``relax.call_packed "f"(%x) : T``."""

    name = "relax.call_packed"
    traits = traits_def(Impure())


@irdl_op_definition
class CallPurePackedOp(PackedCallOp):
    """A call of a packed function asserted to be pure."""

    name = "relax.call_pure_packed"
    traits = traits_def(Pure())


@irdl_op_definition
class CallInplacePackedOp(PackedCallOp):
    """A call of a packed function that mutates the arguments at
    ``inplace_indices`` and returns them (pure, as TVM treats it):
    ``relax.call_inplace_packed "f"(%x) {inplace_indices = [0]} : T``."""

    name = "relax.call_inplace_packed"
    inplace_indices = prop_def(DenseArrayBase)
    traits = traits_def(Pure(), InPlace())

    def infer_type(self) -> StructInfoType:
        declared = super().infer_type()
        args = _arg_types(self.name, self.args)
        single = len(python_value(self.properties["inplace_indices"])) == 1
        if not single and not isinstance(declared, TupleType):
            raise VerifyException(f"{self.name}: several in-place indices need a tuple result type")
        outputs = [declared] if single else list(declared.types)  # pyright: ignore
        for output, index in zip(outputs, inplace_indices(self, outputs, len(args)), strict=True):
            if index != -1 and not is_base_of(output, args[index]):
                raise VerifyException(
                    f"{self.name}: output {struct_info_text(output)} does not match argument "
                    f"{index} of type {struct_info_text(args[index])}"
                )
        return declared


@irdl_op_definition
class CallDPSPackedOp(PackedCallOp):
    """A destination-passing call of a packed function: its outputs are allocated
    from the result type (a tensor or a tuple of tensors) and passed last."""

    name = "relax.call_dps_packed"
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        output_tensors(self.name, self.result.type)
        return super().infer_type()
