"""The well-formedness checker: the spec's criteria and normal form, with located errors.

``check_well_formed(module)`` first runs every operation's own verifier
(types, operand kinds, StructInfo inference against the declared result
types), then checks what needs context: scoping of variables and symbolic
variables (xDSL checks neither dominance nor scopes), dataflow-block
restrictions, recursion, purity, module linkage and the normal form. Rule
numbers are those of the spec's "Well-Formedness Criteria" list (18 rules);
``docs/well-formedness.md`` maps each to its check and its test.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, ErasedSSAValue, Operation, SSAValue
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from .analysis.call_graph import functions, recursive_groups
from .analysis.effects import is_pure
from .analysis.symbolic_vars import type_names
from .analysis.symbols import symbol_name
from .attributes import DataTypeAttr
from .bounded_memo import BoundedMemo
from .diagnostics import Diagnostic, at
from .ops.base import RelaxOp
from .ops.calls import CallOp, InvokeOp
from .ops.control_flow import IfOp, YieldOp
from .ops.core import ToVDeviceOp
from .ops.dataflow import DataflowOp, OutputOp
from .ops.functions import FORCE_PURE, FunctionLike, FunctionOp, LambdaOp, ReturnOp
from .ops.match_cast import MatchCastOp
from .ops.operator import OperatorOp
from .ops.references import GlobalVarOp, OpRefOp
from .ops.values import PrimValueOp, ShapeOp
from .prim_expr import free_vars
from .struct_info import definable_vars, used_vars
from .types import FuncType, PrimType, ShapeType, StructInfoType, TensorType, TupleType
from .vdevice import (
    VDeviceRef,
    declared_vdevices,
    global_infos_problem,
    resolve,
    undeclared_message,
)

BODY_OPS = (FunctionOp, LambdaOp, IfOp, DataflowOp)
PLACED_BY_TRAITS = (FunctionOp, ReturnOp, YieldOp, OutputOp)
"""Operations whose parent their own ``HasParent`` trait constrains."""
TERMINATORS: dict[type[Operation], type[Operation]] = {
    FunctionOp: ReturnOp,
    LambdaOp: ReturnOp,
    IfOp: YieldOp,
    DataflowOp: OutputOp,
}


def rule(number: int, text: str) -> str:
    return f"{text} (well-formedness rule {number})"


def normal_form(number: int, text: str) -> str:
    return f"{text} (normal form rule {number})"


def check_well_formed(
    module: ModuleOp, stale: AbstractSet[Operation] | None = None
) -> list[Diagnostic]:
    """All violations found in ``module``, in program order (empty when well-formed).
    ``stale``: when given, the only operations whose own verifiers may find something
    (the others verified before, in the same context; see ``verify_operations``)."""
    diagnostics = verify_operations(module, stale)
    if diagnostics:
        return diagnostics
    return _ModuleChecker(module).run()


# --- stage 1: each operation's own verifier ---------------------------------


def verify_operations(
    root: Operation, stale: AbstractSet[Operation] | None = None
) -> list[Diagnostic]:
    """Run every operation's verifier (constraints, traits, inference); when
    ``stale`` is given, only those of its operations and of the ones whose
    verifiers look beyond what the snapshot records (``_looks_further``)."""
    diagnostics: list[Diagnostic] = []
    _verify_tree(root, type(root.parent_op()), diagnostics, stale)
    return diagnostics


def _verify_tree(
    op: Operation,
    parent: type,
    diagnostics: list[Diagnostic],
    stale: AbstractSet[Operation] | None,
) -> None:
    """Verify ``op`` (whose parent is of class ``parent``) and, in program order,
    the operations nested in it; skip the whole tree when one with the same
    signature verified before, and ``op`` itself when it is not stale."""
    signature, found = None, len(diagnostics)
    if isinstance(op, ModuleOp) and (duplicates := _redefined_symbols(op)):
        diagnostics += duplicates
    elif stale is None or op in stale or _looks_further(op):
        signature = _signature(op, parent)
        if signature is not None and signature in _VERIFIED:
            return
        try:
            _verify_operation(op)
        except VerifyException as error:
            diagnostics.append(at(op, str(error)))
        except Exception as error:  # a verifier that cannot cope with malformed IR
            diagnostics.append(at(op, f"{op.name}: malformed operation ({error})"))
    kind = type(op)
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                _verify_tree(nested, kind, diagnostics, stale)
    if signature is not None and len(diagnostics) == found:
        _VERIFIED.remember(signature, True)


def _redefined_symbols(module: ModuleOp) -> list[Diagnostic]:
    seen: set[str] = set()
    diagnostics = []
    for op in module.body.block.ops:
        if (name := symbol_name(op)) is not None:
            if name in seen:
                diagnostics.append(at(op, f"redefinition of symbol @{name}"))
            seen.add(name)
    return diagnostics


_VERIFIED: BoundedMemo[tuple[object, ...], bool] = BoundedMemo(1 << 20)
"""Signatures of operation trees that verified (see ``_signature``)."""
_NESTED_LIMIT = 32
"""Most operations in a block of an operation with a signature."""


def _signature(op: Operation, parent: type[Operation] | None) -> tuple[object, ...] | None:
    """Everything the verifiers of ``op`` and of the operations nested in it depend
    on, for a small tree: classes, operand and result types, properties and
    attributes, block argument types, and the class of ``op``'s parent (``parent``,
    ``None`` for a nested operation, whose parent is part of the signature).

    ``None`` where a verifier may look further (``_looks_further``), for terminators
    outside a signed tree (checked against their parent), two levels of regions,
    large blocks. (Class tests go through caches: most of these classes are ABCs,
    whose ``isinstance`` costs more than building the rest of the signature.)"""
    if (parent is not None and _is_terminator(type(op))) or _looks_further(op):
        return None
    properties = tuple(op.properties.items())
    attributes = tuple(op.attributes.items())
    operands = tuple(op.operands)
    for operand in operands:
        if _is_erased(type(operand)):
            return None
    regions: list[object] = []
    for region in op.regions:
        if parent is None:
            return None
        for block in region.blocks:
            nested: list[tuple[object, ...]] = []
            for inner in block.ops:  # stopping at the first that cannot be signed
                signature = _signature(inner, None)
                if signature is None or len(nested) == _NESTED_LIMIT:
                    return None
                nested.append(signature)
            regions.append((tuple(arg.type for arg in block.args), tuple(nested)))
        regions.append(None)  # the end of a region
    return (
        type(op),
        parent,
        tuple([operand.type for operand in operands]),
        op.results.types,
        properties,
        attributes,
        tuple(regions),
    )


def _looks_further(op: Operation) -> bool:
    """Whether the verifier of ``op`` may read more than its own operands, results,
    types, properties, attributes, regions and parent: another operation through
    a symbol reference or (``relax.invoke``) an operand's definition, or a successor."""
    if _reads_definitions(type(op)) or op.successors:
        return True
    values = (*op.properties.values(), *op.attributes.values())
    return any(_is_symbol_reference(type(value)) for value in values)


@cache
def _reads_definitions(kind: type[Operation]) -> bool:
    """``relax.invoke`` looks at its callee's defining operation."""
    return issubclass(kind, InvokeOp)


@cache
def _is_terminator(kind: type[Operation]) -> bool:
    return kind.has_trait(IsTerminator)


@cache
def _is_symbol_reference(kind: type[Attribute]) -> bool:
    return issubclass(kind, SymbolRefAttr)


@cache
def _is_erased(kind: type[SSAValue]) -> bool:
    return issubclass(kind, ErasedSSAValue)


def _verify_operation(op: Operation) -> None:
    if any(isinstance(operand, ErasedSSAValue) for operand in op.operands):
        raise VerifyException(f"{op.name} uses an erased value")
    if (
        isinstance(op, RelaxOp)
        and not isinstance(op, PLACED_BY_TRAITS)
        and not isinstance(op.parent_op(), BODY_OPS)
    ):
        raise VerifyException(normal_form(2, f"{op.name} must be inside a Relax function body"))
    expected = TERMINATORS.get(type(op))
    for region in op.regions:
        if expected is not None and len(region.blocks) != 1:
            raise VerifyException(f"{op.name} must have exactly one block per region")
        for block in region.blocks:
            last = block.last_op
            if expected is not None and not isinstance(last, expected):
                raise VerifyException(f"{op.name}: the body must end with {expected.name}")
            if not op.has_trait(NoTerminator) and (
                last is None or not last.has_trait(IsTerminator)
            ):
                raise VerifyException(f"{op.name}: a block must end with a terminator")
    op.verify_()


# --- stage 2: context ---------------------------------------------------------


def value_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else f"a value of type {value.type}"


class _Scope:
    """Values (with their dataflow block, if any) and symbolic variables visible at
    a program point, with an undo log to leave nested scopes in linear time."""

    def __init__(self) -> None:
        self.values: dict[SSAValue, DataflowOp | None] = {}
        self.symbols: set[str] = set()
        self._log: list[SSAValue | str] = []

    def add_value(self, value: SSAValue, block: DataflowOp | None) -> None:
        if value not in self.values:
            self.values[value] = block
            self._log.append(value)

    def add_symbols(self, names: set[str]) -> None:
        for name in sorted(names - self.symbols):
            self.symbols.add(name)
            self._log.append(name)

    def mark(self) -> int:
        return len(self._log)

    def restore(self, mark: int, keep_symbols: bool = False) -> None:
        kept: list[SSAValue | str] = []
        while len(self._log) > mark:
            item = self._log.pop()
            if isinstance(item, str):
                if keep_symbols:
                    kept.append(item)
                else:
                    self.symbols.discard(item)
            else:
                del self.values[item]
        self._log.extend(reversed(kept))


@dataclass(frozen=True)
class _Context:
    """Where the checker is: enclosing function, dataflow block, global function,
    and the dataflow blocks whose variables a nested function may not capture."""

    function: FunctionLike
    global_name: str
    dataflow: DataflowOp | None = None
    hidden_dataflows: frozenset[DataflowOp] = frozenset()


class _ModuleChecker:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.diagnostics: list[Diagnostic] = []
        self.functions = functions(module)
        self.recursive_groups = recursive_groups(module)
        self.defining: list[Operation] = []
        self.checked_types: set[Attribute] = set()
        self.vdevices = declared_vdevices(module)

    def error(self, item: Operation | SSAValue | Block, message: str) -> None:
        self.diagnostics.append(at(item, message))

    def run(self) -> list[Diagnostic]:
        if (problem := global_infos_problem(self.module)) is not None:
            self.error(self.module, problem)
        if self.functions and not any(f.global_symbol for f in self.functions):
            self.error(
                self.functions[0],
                rule(11, "no function of the module is externally linked (global_symbol)"),
            )
        for function in self.functions:
            self.check_global(function)
        return self.diagnostics

    def check_global(self, function: FunctionOp) -> None:
        name = function.sym_name.data
        symbol = function.global_symbol
        if symbol is not None and symbol.data != name:
            self.error(
                function,
                rule(12, f'global_symbol "{symbol.data}" differs from the function name @{name}'),
            )
        if name in self.recursive_groups and function.ret_type is None:
            self.error(
                function,
                rule(7, f"@{name} is recursive, so it needs a return annotation"),
            )
        self.check_callable(function, _Scope(), _Context(function, name))

    # -- functions --

    def check_callable(self, function: FunctionLike, scope: _Scope, ctx: _Context) -> None:
        params = function.param_types()
        bound = definable_vars(params)
        for param in function.params:
            self.check_annotation(param, param.type)
            unbound = used_vars(param.type) - bound - scope.symbols  # pyright: ignore
            if unbound:
                self.error(
                    param,
                    rule(
                        5,
                        f"symbolic variable {sorted(unbound)[0]} in the signature is never "
                        "bound: it must appear alone as a dimension of some parameter",
                    ),
                )
        mark = scope.mark()
        scope.add_symbols(bound)
        if function.ret_type is not None:
            self.check_annotation(function, function.ret_type)
            if isinstance(function.ret_type, StructInfoType):
                unbound = used_vars(function.ret_type) - scope.symbols
                if unbound:
                    self.error(
                        function,
                        rule(
                            4,
                            f"the return annotation uses symbolic variable {sorted(unbound)[0]}, "
                            "which is neither bound by the parameters nor in scope",
                        ),
                    )
        if function.force_pure and not function.pure:
            self.error(function, f"a function marked {FORCE_PURE} must be pure")
        for arg in function.body.block.args:
            scope.add_value(arg, None)
        self.check_block(function.body.block, scope, ctx)
        scope.restore(mark)

    # -- blocks and bindings --

    def check_block(self, block: Block, scope: _Scope, ctx: _Context) -> None:
        previous: Operation | None = None
        for op in block.ops:
            self.check_uses(op, scope, ctx)
            if not isinstance(op, RelaxOp):
                self.error(op, f"{op.name} cannot appear in a Relax function body")
            elif isinstance(op, DataflowOp):
                self.check_dataflow(op, previous, scope, ctx)
            elif isinstance(op, IfOp):
                self.check_if(op, scope, ctx)
            elif isinstance(op, LambdaOp):
                self.check_lambda(op, scope, ctx)
            self.check_restrictions(op, ctx)
            self.define_results(op, scope, ctx)
            previous = op

    def check_dataflow(
        self, op: DataflowOp, previous: Operation | None, scope: _Scope, ctx: _Context
    ) -> None:
        if ctx.dataflow is not None:
            self.error(op, "a dataflow block cannot contain another dataflow block")
            return
        if isinstance(previous, DataflowOp):
            self.error(op, normal_form(4, "adjacent dataflow blocks must be merged into one"))
        if len(op.body.block.ops) == 1:
            self.error(op, normal_form(4, "an empty dataflow block must be removed"))
        self.defining.append(op)
        mark = scope.mark()
        inner = _Context(ctx.function, ctx.global_name, op, ctx.hidden_dataflows)
        self.check_block(op.body.block, scope, inner)
        scope.restore(mark, keep_symbols=True)
        self.defining.pop()

    def check_if(self, op: IfOp, scope: _Scope, ctx: _Context) -> None:
        self.defining.append(op)
        for region in (op.then_region, op.else_region):
            mark = scope.mark()
            self.check_block(region.block, scope, ctx)
            scope.restore(mark)
        self.defining.pop()

    def check_lambda(self, op: LambdaOp, scope: _Scope, ctx: _Context) -> None:
        hidden = ctx.hidden_dataflows
        if ctx.dataflow is not None:
            hidden = hidden | {ctx.dataflow}
        self.defining.append(op)
        self.check_callable(op, scope, _Context(op, ctx.global_name, None, hidden))
        self.defining.pop()

    def define_results(self, op: Operation, scope: _Scope, ctx: _Context) -> None:
        if isinstance(op, MatchCastOp):
            self.check_annotation(op, op.result.type)
            new = definable_vars([op.target]) - scope.symbols
            self.check_symbols(op, op.result.type, scope.symbols | new)
            scope.add_symbols(new)
        else:
            for result in op.results:
                self.check_types(op, result.type)
                self.check_symbols(op, result.type, scope.symbols)
        if isinstance(op, ShapeOp | PrimValueOp):
            exprs = op.dims.data if isinstance(op, ShapeOp) else (op.value.data,)
            unbound = {v for e in exprs for v in free_vars(e)} - scope.symbols
            if unbound:
                self.error(
                    op,
                    rule(5, f"symbolic variable {sorted(unbound)[0]} is used before it is bound"),
                )
        if isinstance(op, ToVDeviceOp) and not self.is_declared(op.destination):
            self.error(op, undeclared_message(self.vdevices, op.destination))
        if isinstance(op, OperatorOp):
            for name, attr in op.properties.items():
                if isinstance(attr, DataTypeAttr) and (problem := attr.data.problem()):
                    self.error(op, rule(18, f"{name}: {problem}"))
        for result in op.results:
            scope.add_value(result, ctx.dataflow)

    # -- uses --

    def check_uses(self, op: Operation, scope: _Scope, ctx: _Context) -> None:
        for index, operand in enumerate(op.operands):
            owner = operand.owner
            if isinstance(owner, OpRefOp) and not (isinstance(op, InvokeOp) and index == 0):
                self.error(
                    op,
                    rule(8, f"operator reference {value_name(operand)} may only be called"),
                )
            if operand not in scope.values:
                self.error(op, self.scope_message(operand))
            elif scope.values[operand] in ctx.hidden_dataflows:
                self.error(
                    op,
                    rule(
                        10,
                        f"a function defined in a dataflow block uses {value_name(operand)}, "
                        "a dataflow variable of that block",
                    ),
                )

    def scope_message(self, value: SSAValue) -> str:
        owner = value.owner
        if owner in self.defining:
            return rule(
                2,
                f"{value_name(value)} is used inside its own definition"
                + (
                    " (a recursive lambda refers to itself as recursive(%self))"
                    if isinstance(owner, LambdaOp)
                    else ""
                ),
            )
        parent = owner.parent_op() if isinstance(owner, Operation) else None
        if isinstance(parent, DataflowOp):
            return rule(
                1,
                f"{value_name(value)} is a dataflow variable and cannot be used outside its "
                "dataflow block; list it in relax.output",
            )
        return rule(3, f"{value_name(value)} is used before it is defined or outside its scope")

    # -- dataflow and purity restrictions --

    def check_restrictions(self, op: Operation, ctx: _Context) -> None:
        if ctx.dataflow is not None:
            if isinstance(op, IfOp):
                self.error(op, rule(6, "relax.if cannot appear in a dataflow block"))
            elif (callee := self.recursive_callee(op, ctx)) is not None:
                self.error(
                    op,
                    rule(
                        6,
                        f"a dataflow block cannot call {callee}, which is recursive with "
                        "the current function",
                    ),
                )
        if isinstance(op, RelaxOp) and not is_pure(op):
            if ctx.dataflow is not None:
                self.error(op, rule(6, f"impure {op.name} cannot appear in a dataflow block"))
            elif ctx.function.pure and not ctx.function.force_pure:
                self.error(
                    op,
                    f"impure {op.name} cannot appear in a pure function; mark the function "
                    "impure or use a pure variant (e.g. relax.call_pure_packed)",
                )

    def recursive_callee(self, op: Operation, ctx: _Context) -> str | None:
        group = self.recursive_groups.get(ctx.global_name, frozenset())
        if isinstance(op, CallOp) and op.callee_name in group:
            return f"@{op.callee_name}"
        if isinstance(op, InvokeOp):
            callee = op.callee
            if isinstance(ctx.function, LambdaOp) and callee is ctx.function.self_reference:
                return value_name(callee)
            owner = callee.owner
            if isinstance(owner, GlobalVarOp) and owner.function.root_reference.data in group:
                return f"@{owner.function.root_reference.data}"
        return None

    # -- types --

    def check_annotation(self, item: Operation | SSAValue, sinfo: Attribute) -> None:
        """Rules for written annotations: data types (18), function types (15)."""
        self.check_types(item, sinfo)
        for nested in _nested_types(sinfo):
            if isinstance(nested, FuncType) and nested.is_opaque and nested.derive is None:
                self.error(
                    item,
                    rule(
                        15, "a function type in an annotation needs parameters or a derive function"
                    ),
                )
                return

    def check_types(self, item: Operation | SSAValue, sinfo: Attribute) -> None:
        if sinfo in self.checked_types:
            return
        for nested in _nested_types(sinfo):
            dtype = nested.data_type if isinstance(nested, TensorType | PrimType) else None
            if dtype is not None and (problem := dtype.problem()):
                self.error(item, rule(18, problem))
                return
            if isinstance(nested, TensorType) and not self.is_declared(nested.device):
                self.error(item, undeclared_message(self.vdevices, nested.device))  # pyright: ignore
                return
        self.checked_types.add(sinfo)

    def is_declared(self, device: VDeviceRef | None) -> bool:
        """Whether ``device`` is none or a virtual device the module declares (EN 24)."""
        return device is None or resolve(self.vdevices, device) is not None

    def check_symbols(self, op: Operation, sinfo: Attribute, allowed: set[str]) -> None:
        if not isinstance(sinfo, StructInfoType) or allowed.issuperset(type_names(sinfo)):
            return
        for nested in _nested_types(sinfo, into_functions=False):
            if isinstance(nested, TupleType | FuncType):
                continue
            if unbound := used_vars(nested) - allowed:
                number = {TensorType: 13, ShapeType: 14}.get(type(nested), 5)
                self.error(
                    op,
                    rule(
                        number,
                        f"symbolic variable {sorted(unbound)[0]} is used before it is "
                        "bound (in a function signature or relax.match_cast)",
                    ),
                )
                return
        for nested in _nested_types(sinfo):
            if isinstance(nested, FuncType) and (unbound := used_vars(nested) - allowed):
                self.error(
                    op,
                    rule(5, f"symbolic variable {sorted(unbound)[0]} is used before it is bound"),
                )
                return


def _nested_types(sinfo: Attribute, into_functions: bool = True) -> Iterator[StructInfoType]:
    if not isinstance(sinfo, StructInfoType):
        return
    yield sinfo
    if isinstance(sinfo, TupleType):
        for field_type in sinfo.types:
            yield from _nested_types(field_type, into_functions)
    elif isinstance(sinfo, FuncType) and into_functions:
        for part in (*(sinfo.param_types or ()), sinfo.ret_type):
            yield from _nested_types(part, into_functions)
