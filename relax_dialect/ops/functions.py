"""Functions: global ``relax.function``, local ``relax.lambda`` and ``relax.return``.

A function's parameters are its entry block arguments. Its return annotation
(``ret_type``) is optional; without one, the function's result type is the
type of the returned value, with symbolic variables bound inside the body
erased (the spec's ``erase_to_well_defined``). A recursive ``relax.lambda``
refers to itself through an extra first block argument (``recursive(%self)``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolNameConstraint,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from ..struct_info import definable_vars, erase_vars, used_vars
from ..types import FuncType, ObjectType, StructInfoType, parse_struct_info, struct_info_text
from .base import RelaxOp, check_annotation, parse_body, parse_value
from .match_cast import MatchCastOp
from .traits import NoSideEffect

TRUE = BoolAttr.from_bool(True)
FORCE_PURE = "relax.force_pure"
GLOBAL_SYMBOL = "global_symbol"


class FunctionLike(RelaxOp):
    """What global functions and lambdas share: signature, body, result type."""

    body = region_def("single_block")
    ret_type = opt_prop_def(Attribute)
    purity = opt_prop_def(BoolAttr, default_value=TRUE)

    @property
    def params(self) -> Sequence[SSAValue]:
        return self.body.block.args

    @property
    def pure(self) -> bool:
        return bool(self.purity.value.data)

    @property
    def force_pure(self) -> bool:
        """``relax.force_pure``: impure calls inside do not make the function impure."""
        attr = self.attributes.get(FORCE_PURE)
        return isinstance(attr, IntegerAttr) and attr.value.data != 0

    @property
    def returned(self) -> SSAValue | None:
        last = self.body.block.last_op
        return last.value if isinstance(last, ReturnOp) else None

    def param_types(self) -> list[StructInfoType]:
        return [p.type for p in self.params]  # pyright: ignore[reportReturnType]

    def body_type(self) -> StructInfoType:
        return body_type(self.body, self.param_types(), isinstance(self, FunctionOp))

    def function_type(self) -> FuncType:
        return _function_type(tuple(self.param_types()), self.result_info(), self.pure)

    def result_info(self) -> StructInfoType:
        """The return annotation, or else the body's type."""
        return self.ret_type if isinstance(self.ret_type, StructInfoType) else self.body_type()

    def verify_signature(self, what: str) -> None:
        for param in self.params:
            if not isinstance(param.type, StructInfoType):
                raise VerifyException(f"{what}: parameter has non-Relax type {param.type}")
        if self.ret_type is not None and not isinstance(self.ret_type, StructInfoType):
            raise VerifyException(f"{what}: return annotation {self.ret_type} is not a Relax type")
        returned = self.returned
        if self.ret_type is not None and returned is not None:
            try:
                check_annotation(what, self.ret_type, self.body_type())
            except VerifyException:
                raise VerifyException(
                    f"{what}: the body returns {struct_info_text(self.body_type())}, which "
                    f"contradicts the return annotation {struct_info_text(self.ret_type)}"
                ) from None


@lru_cache(maxsize=1 << 12)
def _function_type(params: tuple[StructInfoType, ...], ret: StructInfoType, pure: bool) -> FuncType:
    """A function's StructInfo, built once per signature: every call's inference asks
    for its callee's."""
    return FuncType(params, ret, pure)


def body_type(body: Region, params: Sequence[StructInfoType], is_global: bool) -> StructInfoType:
    """The type of the returned value, erased of symbolic variables bound in the body.

    Other than the signature's, a global function's variables are all bound in
    its body; a lambda's may also be captured from the enclosing scope."""
    last = body.blocks.first.last_op if len(body.blocks) == 1 else None  # pyright: ignore
    if not isinstance(last, ReturnOp) or not isinstance(last.value.type, StructInfoType):
        return ObjectType()
    returned = last.value.type
    extra = used_vars(returned) - definable_vars(params)
    if not extra:
        return returned
    local = extra if is_global else extra & body_local_vars(body)
    return erase_vars(returned, lambda name: name not in local)


def body_local_vars(region: Region) -> set[str]:
    """Symbolic variables bound by ``relax.match_cast`` in ``region`` (not in nested
    functions)."""
    return {
        name
        for op in ops_in_scope(region)
        if isinstance(op, MatchCastOp)
        for name in op.defined_vars()
    }


def ops_in_scope(region: Region) -> Iterator[Operation]:
    """Operations of ``region`` and its nested regions, stopping at nested lambdas."""
    for block in region.blocks:
        for op in block.ops:
            yield op
            if not isinstance(op, LambdaOp):
                for inner in op.regions:
                    yield from ops_in_scope(inner)


class IsolatedByScopeRules(IsolatedFromAbove):
    """``IsolatedFromAbove`` for passes and rewriters, checked by the well-formedness
    check's scope rules (1-3), which reject every use of a value from outside the
    function, with the rule's message, in the walk that checks the other uses
    (xDSL's own check walks each function once more: a tenth of a recheck)."""

    def verify(self, op: Operation) -> None:
        return


@irdl_op_definition
class FunctionOp(FunctionLike):
    """A global Relax function, ``relax.function @name(%x: T) -> R {...}``.

    Public functions carry ``global_symbol`` (external linkage); ``private``
    ones do not. ``impure`` marks a function with side effects.
    """

    name = "relax.function"
    sym_name = prop_def(SymbolNameConstraint())
    global_symbol = opt_prop_def(StringAttr)
    traits = lazy_traits_def(
        lambda: (
            IsolatedByScopeRules(),
            SymbolOpInterface(),
            HasParent(ModuleOp),
            NoSideEffect(),
        )
    )

    def __init__(
        self,
        sym_name: str,
        body: Region,
        ret_type: StructInfoType | None = None,
        *,
        public: bool = True,
        pure: bool = True,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            regions=[body],
            properties={
                "sym_name": StringAttr(sym_name),
                "global_symbol": StringAttr(sym_name) if public else None,
                "ret_type": ret_type,
                "purity": BoolAttr.from_bool(pure),
            },
            attributes=attributes or {},
        )

    def verify_(self) -> None:
        self.verify_signature(f"relax.function @{self.sym_name.data}")
        if GLOBAL_SYMBOL in self.attributes:
            raise VerifyException(
                f"relax.function @{self.sym_name.data}: {GLOBAL_SYMBOL} is the function's "
                "linkage property, not an attribute"
            )

    @classmethod
    def parse(cls, parser: Parser) -> FunctionOp:
        public = parser.parse_optional_keyword("private") is None
        pure = parser.parse_optional_keyword("impure") is None
        name = parser.parse_symbol_name().data
        params, ret_type = _parse_signature(parser)
        start = parser.pos
        attributes = parser.parse_optional_attr_dict_with_keyword()
        attributes_span = (start, parser.pos)
        body = parse_body(parser, params)
        op = cls(name, body, ret_type, public=public, pure=pure)
        try:
            op.set_attributes(attributes.data if attributes is not None else {})
        except VerifyException as error:
            parser.raise_error(str(error), *attributes_span)
        return op

    def set_attributes(self, attributes: Mapping[str, Attribute]) -> None:
        """Set attributes as TVM's ``attrs`` of a function holds them, whatever the
        input format: ``global_symbol`` is the linkage (a string, on a public
        function only), the others are attributes."""
        for key, value in attributes.items():
            if key != GLOBAL_SYMBOL:
                self.attributes[key] = value
            elif self.global_symbol is None:
                raise VerifyException(
                    f"@{self.sym_name.data} is private, so it may not have a {GLOBAL_SYMBOL}"
                )
            elif not isinstance(value, StringAttr):
                raise VerifyException(f"{GLOBAL_SYMBOL} must be a string")
            else:
                self.global_symbol = value

    def print(self, printer: Printer) -> None:
        if self.global_symbol is None:
            printer.print_string(" private")
        if not self.pure:
            printer.print_string(" impure")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        _print_signature(printer, self.params, self.ret_type)
        attributes = dict(self.attributes)
        if self.global_symbol is not None and self.global_symbol != self.sym_name:
            attributes[GLOBAL_SYMBOL] = self.global_symbol
        if attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


@irdl_op_definition
class LambdaOp(FunctionLike):
    """A local function (closure): ``%f = relax.lambda (%x: T) -> R {...}``.

    It captures the outer values it uses. A recursive one names itself with a
    first block argument: ``relax.lambda recursive(%self) (%x: T) -> R``.
    """

    name = "relax.lambda"
    recursive = opt_prop_def(UnitAttr)
    result = result_def()
    traits = traits_def(NoSideEffect())

    def __init__(
        self,
        body: Region,
        ret_type: StructInfoType | None = None,
        *,
        pure: bool = True,
        recursive: bool = False,
    ):
        properties: dict[str, Attribute | None] = {
            "ret_type": ret_type,
            "purity": BoolAttr.from_bool(pure),
            "recursive": UnitAttr() if recursive else None,
        }
        args = body.blocks.first.args if body.blocks.first is not None else ()
        param_types: list[StructInfoType] = [p.type for p in (args[1:] if recursive else args)]  # pyright: ignore
        ret = ret_type if ret_type is not None else body_type(body, param_types, is_global=False)
        own_type = FuncType(param_types, ret, pure)
        super().__init__(regions=[body], properties=properties, result_types=[own_type])

    @property
    def self_reference(self) -> SSAValue | None:
        return self.body.block.args[0] if self.recursive is not None else None

    @property
    def params(self) -> Sequence[SSAValue]:
        args = self.body.block.args
        return args[1:] if self.recursive is not None else args

    def verify_(self) -> None:
        self.verify_signature("relax.lambda")
        if self.recursive is not None:
            if not self.body.block.args:
                raise VerifyException("relax.lambda: a recursive lambda needs a self argument")
            if self.ret_type is None:
                raise VerifyException(
                    "relax.lambda: a recursive function needs a return annotation "
                    "(well-formedness rule 7)"
                )
            if self.body.block.args[0].type != self.function_type():
                raise VerifyException(
                    "relax.lambda: the self argument must have the lambda's function type"
                )
        if self.result.type != self.function_type():
            raise VerifyException(
                f"relax.lambda: result type {struct_info_text(self.result.type)} is not the "
                f"lambda's function type {struct_info_text(self.function_type())}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> LambdaOp:
        self_arg = None
        if parser.parse_optional_keyword("recursive") is not None:
            parser.parse_punctuation("(")
            self_arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation(")")
        pure = parser.parse_optional_keyword("impure") is None
        params, ret_type = _parse_signature(parser)
        if self_arg is None:
            return cls(parse_body(parser, params), ret_type, pure=pure)
        if ret_type is None:
            parser.raise_error(
                "a recursive function needs a return annotation (well-formedness rule 7)"
            )
        self_type = FuncType([p.type for p in params], ret_type, pure)  # pyright: ignore
        region = parse_body(parser, [self_arg.resolve(self_type), *params])
        return cls(region, ret_type, pure=pure, recursive=True)

    def print(self, printer: Printer) -> None:
        if self.self_reference is not None:
            printer.print_string(" recursive(")
            printer.print_operand(self.self_reference)
            printer.print_string(")")
        if not self.pure:
            printer.print_string(" impure")
        printer.print_string(" ")
        _print_signature(printer, self.params, self.ret_type)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


def _parse_signature(parser: Parser) -> tuple[list[Parser.Argument], StructInfoType | None]:
    def parse_param() -> Parser.Argument:
        arg = parser.parse_argument(expect_type=False)
        parser.parse_punctuation(":")
        param = arg.resolve(parse_struct_info(parser))
        if (locate := getattr(parser, "location_at", None)) is not None:
            param.location = locate(arg.name.start)
        return param

    params = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_param)
    ret_type = None
    if parser.parse_optional_punctuation("->") is not None:
        ret_type = parse_struct_info(parser)
    return params, ret_type


def _print_signature(
    printer: Printer, params: Sequence[SSAValue], ret_type: Attribute | None
) -> None:
    printer.print_string("(")
    printer.print_list(params, lambda arg: printer.print_block_argument(arg))  # pyright: ignore
    printer.print_string(")")
    if ret_type is not None:
        printer.print_string(" -> ")
        printer.print_attribute(ret_type)


@irdl_op_definition
class ReturnOp(RelaxOp):
    """The result of a function body: ``relax.return %v``."""

    name = "relax.return"
    value = operand_def()
    traits = lazy_traits_def(
        lambda: (IsTerminator(), HasParent(FunctionOp, LambdaOp), NoSideEffect())
    )

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        return cls(parse_value(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
