"""References as values: global functions, extern (packed) functions, operators."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..analysis.symbols import lookup_symbol
from ..types import FuncType, ObjectType, StructInfoType
from . import operator_class
from .base import BindingOp, parse_result_type, print_result_type

EXTERN_FUNC_TYPE = FuncType(None, ObjectType(), pure=False, derive_func="default_derive")


def function_type_of(op: Operation, name: str, what: str) -> FuncType:
    """The StructInfo of the global Relax function ``@name``."""
    from .functions import FunctionOp

    callee = lookup_symbol(op, name)
    if not isinstance(callee, FunctionOp):
        problem = "is not a relax.function" if callee is not None else "is not defined"
        raise VerifyException(f"{what}: @{name} {problem}")
    return callee.function_type()


@irdl_op_definition
class GlobalVarOp(BindingOp):
    """A global function as a first-class value: ``relax.global_var @f``."""

    name = "relax.global_var"
    function = prop_def(SymbolRefAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, function: str, result_type: StructInfoType):
        super().__init__(
            properties={"function": SymbolRefAttr(function)}, result_types=[result_type]
        )

    def infer_type(self) -> StructInfoType:
        return function_type_of(self, self.function.root_reference.data, self.name)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalVarOp:
        function = parser.parse_symbol_name().data
        return cls(function, parse_result_type(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.function.root_reference.data)
        print_result_type(printer, self)


@irdl_op_definition
class ExternFuncOp(BindingOp):
    """A packed function looked up by name (the spec's ``ExternFunc``).

    Its type is opaque and impure by default; a more precise function type
    may be declared, as TVM allows.
    """

    name = "relax.extern_func"
    symbol = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, symbol: str, result_type: StructInfoType = EXTERN_FUNC_TYPE):
        super().__init__(properties={"symbol": StringAttr(symbol)}, result_types=[result_type])

    def infer_type(self) -> StructInfoType:
        declared = self.result.type
        if not isinstance(declared, FuncType):
            raise VerifyException(f"{self.name}: result must have a function type")
        return declared

    @classmethod
    def parse(cls, parser: Parser) -> ExternFuncOp:
        symbol = parser.parse_str_literal()
        return cls(symbol, parse_result_type(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.symbol.data)
        print_result_type(printer, self)


@irdl_op_definition
class OpRefOp(BindingOp):
    """An operator as a value (the spec's ``Op`` node): ``relax.op_ref "relax.add"``.

    Well-formed programs use it only as the callee of ``relax.invoke``, which
    then calls the operator (well-formedness rule 8).
    """

    name = "relax.op_ref"
    op_name = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, op_name: str, result_type: StructInfoType | None = None):
        super().__init__(
            properties={"op_name": StringAttr(op_name)},
            result_types=[result_type or ObjectType()],
        )

    def operator(self) -> type[Operation]:
        """The operation class of the referenced operator."""
        found = operator_class(self.op_name.data)
        if found is None:
            raise VerifyException(f"relax.op_ref: '{self.op_name.data}' is not a Relax operator")
        return found

    def infer_type(self) -> StructInfoType:
        self.operator()
        return ObjectType()

    @classmethod
    def parse(cls, parser: Parser) -> OpRefOp:
        op_name = parser.parse_str_literal()
        return cls(op_name, parse_result_type(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.op_name.data)
        print_result_type(printer, self)
