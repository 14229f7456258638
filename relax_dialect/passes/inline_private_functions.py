"""``relax-inline-private-functions``: inline the calls of private functions (TVM's
``InlinePrivateFunctions``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ..analysis.call_graph import callees_first, is_recursive, remove_unreachable, symbol_uses
from ..analysis.effects import function_purity, is_pure
from ..analysis.symbolic_vars import symbolic_names
from ..analysis.symbols import symbol_name, symbol_table
from ..attributes import PrimExprAttr, ShapeAttr
from ..ops.base import BindingOp
from ..ops.calls import CallOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import FunctionLike, FunctionOp, LambdaOp, ReturnOp
from ..ops.match_cast import MatchCastOp
from ..ops.values import TupleGetItemOp, TupleOp
from ..prim_expr import PrimExpr, Var
from ..rewriting.bindings import set_type
from ..rewriting.dataflow_blocks import merge_adjacent_dataflows, tidy_dataflow
from ..rewriting.dead_code import eliminate_dead_code
from ..struct_info import is_base_of, signature_mapping, substitute_expr, substitute_vars
from ..types import StructInfoType, TupleType

NOT_INLINED = ("Primitive", "Composite", "Codegen")
"""Function attributes (TVM's) of functions kept whole: fused kernels, pattern
matches, functions for an external code generator."""


@dataclass(frozen=True)
class InlinePrivateFunctionsPass(ModulePass):
    """Replace every ``relax.call`` of a private Relax function by the callee's
    body, then remove the private functions no longer referenced. Recursive
    functions and functions marked ``Primitive``, ``Composite`` or ``Codegen``
    are not inlined. Symbolic variables of the callee's signature become the
    caller's expressions for them; those bound in its body are renamed apart
    from the caller's. An argument not statically known to match its parameter,
    or a result not known to match the call's type, is checked by a
    ``relax.match_cast``, as the call would have checked it. A body that cannot
    live in a dataflow block (an ``if``, a closure, a dataflow block of its own
    that could not be flattened) splits the caller's dataflow block around it."""

    name = "relax-inline-private-functions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        uses = symbol_uses(op)
        table = symbol_table(op)
        order = callees_first(uses)
        candidates: dict[str, FunctionOp] = {}
        for component in order:
            function = table[component[0]]
            if (
                not is_recursive(component, uses)
                and isinstance(function, FunctionOp)
                and function.global_symbol is None
                and not any(key in function.attributes for key in NOT_INLINED)
            ):
                candidates[component[0]] = function
        if not candidates:
            return
        purity = function_purity(op)
        callees = _Callees(candidates)
        for component in order:
            for name in component:
                function = table[name]
                if isinstance(function, FunctionOp):
                    _Inliner(function, callees).run(purity)
        remove_unreachable(op, lambda top: symbol_name(top) not in candidates)


# --- substitution of symbolic variables ------------------------------------------


class _Substitution:
    """Clones operations, renaming values and symbolic variables."""

    def __init__(self, mapping: Mapping[str, PrimExpr]):
        self.mapping = mapping
        self.types: dict[StructInfoType, StructInfoType] = {}

    def type(self, sinfo: StructInfoType) -> StructInfoType:
        if not self.mapping:
            return sinfo
        found = self.types.get(sinfo)
        if found is None:
            found = self.types[sinfo] = substitute_vars(sinfo, self.mapping)
        return found

    def attr(self, attr: Attribute) -> Attribute:
        if not self.mapping:
            return attr
        if isinstance(attr, StructInfoType):
            return self.type(attr)
        if isinstance(attr, ShapeAttr):
            return ShapeAttr(tuple(substitute_expr(dim, self.mapping) for dim in attr.data))
        if isinstance(attr, PrimExprAttr):
            return PrimExprAttr(substitute_expr(attr.data, self.mapping))
        return attr

    def clone(self, op: Operation, values: dict[SSAValue, SSAValue]) -> Operation:
        regions = []
        for region in op.regions:
            new_region = Region()
            for block in region.blocks:
                new_block = Block(arg_types=[self.attr(arg.type) for arg in block.args])
                for old, new in zip(block.args, new_block.args, strict=True):
                    new.name_hint = old.name_hint
                    values[old] = new
                for inner in block.ops:
                    new_block.add_op(self.clone(inner, values))
                new_region.add_block(new_block)
            regions.append(new_region)
        new = op.create(
            operands=[values.get(v, v) for v in op.operands],
            result_types=[self.attr(r.type) for r in op.results],
            properties={k: self.attr(v) for k, v in op.properties.items()},
            attributes={k: self.attr(v) for k, v in op.attributes.items()},
            location=op.location,
            regions=regions,
        )
        if isinstance(new, LambdaOp):
            set_type(new.result, new.function_type())
        for old, result in zip(op.results, new.results, strict=True):
            result.name_hint = old.name_hint
            values[old] = result
        return new


# --- inlining ----------------------------------------------------------------------


def _fits_dataflow(op: Operation) -> bool:
    """Whether ``op`` (a callee's top-level operation) may join a dataflow block
    whose values its inputs become: a pure binding without regions, or a dataflow
    block of such bindings (flattened)."""
    if isinstance(op, DataflowOp):
        return all(
            _fits_dataflow(inner) for inner in op.body.block.ops if inner is not op.output_op
        )
    return isinstance(op, BindingOp) and not op.regions and is_pure(op)


def _innermost_function(op: Operation) -> FunctionLike:
    parent = op.parent_op()
    while not isinstance(parent, FunctionLike):
        assert parent is not None
        parent = parent.parent_op()
    return parent


class _Callees:
    """The functions to inline, and what inlining needs to know of each (found
    once, when first needed: callees are final before their callers)."""

    def __init__(self, functions: dict[str, FunctionOp]):
        self.functions = functions
        self.vars: dict[str, set[str]] = {}
        self.flat: dict[str, bool] = {}

    def symbolic_names(self, name: str) -> set[str]:
        if name not in self.vars:
            self.vars[name] = set(symbolic_names([self.functions[name]]))
        return self.vars[name]

    def fits_dataflow(self, name: str) -> bool:
        """Whether the body may be inlined into a dataflow block as it is."""
        if name not in self.flat:
            body = self.functions[name].body.block.ops
            self.flat[name] = all(_fits_dataflow(op) for op in body if not isinstance(op, ReturnOp))
        return self.flat[name]


class _Inliner:
    """Inlines the calls of candidate functions in one function."""

    def __init__(self, function: FunctionOp, callees: _Callees):
        self.function = function
        self.callees = callees
        self.candidates = callees.functions
        self.names: set[str] = set()
        """The symbolic variables the function mentions (inlined bodies included)."""
        self.suffixes: dict[str, int] = {}

    def calls(self) -> list[CallOp]:
        return [
            op
            for op in self.function.walk()
            if isinstance(op, CallOp) and op.callee_name in self.candidates
        ]

    def run(self, purity: dict[str, bool]) -> None:
        """Inline every call that may be, after and before removing dead code
        (dead calls need not be inlined)."""
        if not self.calls():
            return
        self.names = set(symbolic_names([self.function]))
        eliminate_dead_code(self.function.body.block, purity)
        work = self.calls()
        work.reverse()
        while work:
            call = work.pop()
            if self.allowed(call):
                work += reversed(self.inline(call))
        eliminate_dead_code(self.function.body.block, purity)

    def allowed(self, call: CallOp) -> bool:
        """A callee marked ``relax.force_pure`` may hide impure calls: it is
        inlined only where those may appear."""
        if not self.candidates[call.callee_name].force_pure:
            return True
        caller = _innermost_function(call)
        return not isinstance(call.parent_op(), DataflowOp) and (
            caller.force_pure or not caller.pure
        )

    def renaming(self, callee: FunctionOp, call: CallOp) -> _Substitution:
        """Signature variables to the caller's expressions; the callee's other
        variables to names the caller does not use."""
        own = self.callees.symbolic_names(callee.sym_name.data)
        signature = signature_mapping(callee.param_types(), [arg.type for arg in call.args])  # pyright: ignore
        mapping = {var: expr for var, expr in signature.items() if expr != Var(var)}
        for var in sorted(own - signature.keys()):
            if var in self.names:
                mapping[var] = Var(self.fresh(var, own))
            else:
                self.names.add(var)
        return _Substitution(mapping)

    def fresh(self, var: str, avoid: set[str]) -> str:
        """A new name for ``var``, unused by the caller and by ``avoid``."""
        suffix = self.suffixes.get(var, 0)
        while True:
            suffix += 1
            name = f"{var}_{suffix}"
            if name not in self.names and name not in avoid:
                break
        self.suffixes[var] = suffix
        self.names.add(name)
        return name

    def inline(self, call: CallOp) -> list[CallOp]:
        """Inline one call; returns the calls of candidates the inlined body has."""
        callee = self.candidates[call.callee_name]
        name = callee.sym_name.data
        substitution = self.renaming(callee, call)
        values: dict[SSAValue, SSAValue] = {}
        block = call.parent_block()
        assert block is not None
        body = [op for op in callee.body.block.ops if not isinstance(op, ReturnOp)]
        if isinstance(block.parent_op(), DataflowOp) and not self.callees.fits_dataflow(name):
            split_dataflow_at(call)
            block = call.parent_block()
            assert block is not None
        in_dataflow = isinstance(block.parent_op(), DataflowOp)
        first = call.prev_op
        calls: list[CallOp] = []
        for op in self.bind_parameters(callee, call, substitution, values):
            block.insert_op_before(op, call)
        for op in body:
            new = substitution.clone(op, values)
            block.insert_op_before(new, call)
            calls += [
                inner
                for inner in new.walk()
                if isinstance(inner, CallOp) and inner.callee_name in self.candidates
            ]
            if in_dataflow and isinstance(new, DataflowOp):
                for old, inner in zip(op.results, new.output_op.values, strict=True):
                    values[old] = inner
                _flatten(new)
        returned = callee.returned
        assert returned is not None
        result = values.get(returned, returned)
        expected = call.result.type
        if result.type != expected and not is_base_of(expected, result.type):  # pyright: ignore
            check = MatchCastOp(result, expected)  # pyright: ignore[reportArgumentType]
            check.result.name_hint = call.result.name_hint
            block.insert_op_before(check, call)
            result = check.result
        after = call.next_op
        call.result.replace_all_uses_with(result)
        call.detach()
        call.erase()
        _retype_users(result)
        if not in_dataflow:
            stop = after.next_op if after is not None else None
            current = first if first is not None else block.first_op
            span = []
            while current is not stop:
                assert current is not None
                span.append(current)
                current = current.next_op
            merge_adjacent_dataflows(block, span)
        return calls

    def bind_parameters(
        self,
        callee: FunctionOp,
        call: CallOp,
        substitution: _Substitution,
        values: dict[SSAValue, SSAValue],
    ) -> list[Operation]:
        """Map each parameter to its argument; the arguments not statically known
        to match their parameter's type are checked by one ``relax.match_cast``
        (of a tuple of them when several, so they bind their variables
        together). Returns the operations to insert first."""
        checked: list[tuple[SSAValue, SSAValue, StructInfoType]] = []
        for param, arg in zip(callee.params, call.args, strict=True):
            expected = substitution.type(param.type)  # pyright: ignore[reportArgumentType]
            if arg.type == expected or is_base_of(expected, arg.type):  # pyright: ignore
                values[param] = arg
            else:
                checked.append((param, arg, expected))
        if not checked:
            return []
        if len(checked) == 1:
            param, arg, expected = checked[0]
            cast = MatchCastOp(arg, expected)
            cast.result.name_hint = param.name_hint
            values[param] = cast.result
            return [cast]
        packed = TupleOp([arg for _, arg, _ in checked])
        cast = MatchCastOp(packed.result, TupleType([expected for _, _, expected in checked]))
        ops: list[Operation] = [packed, cast]
        for index, (param, _, _) in enumerate(checked):
            item = TupleGetItemOp(cast.result, index)
            item.result.name_hint = param.name_hint
            values[param] = item.result
            ops.append(item)
        return ops


def _flatten(dataflow: DataflowOp) -> None:
    """Dissolve a dataflow block nested in another one into it."""
    parent = dataflow.parent_block()
    assert parent is not None
    for op in list(dataflow.body.block.ops):
        if op is not dataflow.output_op:
            op.detach()
            parent.insert_op_before(op, dataflow)
    for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
        result.replace_all_uses_with(value)
    dataflow.detach()
    dataflow.erase()


def _retype_users(value: SSAValue) -> None:
    """After ``value`` replaced a value of a more general type: update the types
    that must equal it exactly (dataflow results, closures without a return
    annotation)."""
    work = [value]
    while work:
        current = work.pop()
        for use in list(current.uses):
            user = use.operation
            parent = user.parent_op()
            if isinstance(user, OutputOp) and isinstance(parent, DataflowOp):
                result = parent.results[use.index]
                if result.type != current.type:
                    work.append(set_type(result, current.type))  # pyright: ignore
            elif (
                isinstance(user, ReturnOp)
                and isinstance(parent, LambdaOp)
                and parent.ret_type is None
                and parent.result.type != parent.function_type()
            ):
                work.append(set_type(parent.result, parent.function_type()))


def split_dataflow_at(op: Operation) -> None:
    """Move the binding ``op`` out of its dataflow block, just before it: the
    bindings before ``op`` move to a new dataflow block before it, which exports
    what later code uses; those after stay in the original block."""
    dataflow = op.parent_op()
    assert isinstance(dataflow, DataflowOp)
    parent = dataflow.parent_block()
    assert parent is not None
    prefix: list[Operation] = []
    current = dataflow.body.block.first_op
    while current is not op:
        assert current is not None
        prefix.append(current)
        current = current.next_op
    if prefix:
        inside = set(prefix)
        exported = [
            (value, [use for use in value.uses if use.operation not in inside])
            for before in prefix
            for value in before.results
        ]
        exported = [(value, outside) for value, outside in exported if outside]
        block = Block()
        for before in prefix:
            before.detach()
            block.add_op(before)
        block.add_op(OutputOp([value for value, _ in exported]))
        first = DataflowOp(Region(block))
        parent.insert_op_before(first, dataflow)
        for (value, outside), result in zip(exported, first.results, strict=True):
            result.name_hint = value.name_hint
            for use in outside:
                use.operation.operands[use.index] = result
    op.detach()
    parent.insert_op_before(op, dataflow)
    tidy_dataflow(dataflow)
