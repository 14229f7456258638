"""``relax-canonicalize-bindings``: forward trivial bindings, learn symbolic
variables from ``relax.match_cast``, export from dataflow blocks only what is used."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ..analysis.call_graph import functions_callees_first
from ..attributes import PrimExprAttr, ShapeAttr
from ..canonicalization.bindings import PATTERNS
from ..ops.control_flow import IfOp, YieldOp
from ..ops.dataflow import DataflowOp
from ..ops.functions import LambdaOp
from ..ops.match_cast import MatchCastOp
from ..ops.values import PrimValueOp, ShapeOp
from ..prim_expr import PrimExpr, free_vars
from ..rewriting.bindings import erase_unused
from ..rewriting.dataflow_blocks import merge_adjacent_dataflows, prune_outputs
from ..rewriting.patterns import BindingPattern
from ..rewriting.type_refiner import TypeRefiner
from ..struct_info import (
    definable_vars,
    is_base_of,
    never_matches,
    signature_mapping,
    substitute_expr,
    substitute_vars,
    used_vars,
)
from ..types import FuncType, StructInfoType, TupleType

Known = dict[str, PrimExpr]
"""Symbolic variables whose value a ``relax.match_cast`` established, in scope."""


@dataclass(frozen=True)
class CanonicalizeBindingsPass(ModulePass):
    """Simplify bindings, as TVM's ``CanonicalizeBindings``: a ``relax.match_cast``
    whose target is provably implied by the value's StructInfo is the value
    itself; a symbolic variable a ``relax.match_cast`` matches against a known
    expression is that expression for the rest of its scope (so the cast usually
    becomes trivial); ``relax.tuple_get_item`` of a ``relax.tuple`` is the field
    and a ``relax.tuple`` of all the fields of a tuple, in order, is that tuple;
    a dataflow block exports each used inner value once and no outer value. The
    StructInfo downstream is re-inferred."""

    name = "relax-canonicalize-bindings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        canonicalizer = _Canonicalizer()
        for function in functions_callees_first(op):
            canonicalizer.region(function.body, {})
            canonicalizer.refiner.check_return(function)
        canonicalizer.finish()


class _Canonicalizer:
    def __init__(self) -> None:
        self.refiner = TypeRefiner()
        self.dataflows: list[DataflowOp] = []
        self.blocks: dict[Block, None] = {}
        self._patterns: dict[type[Operation], list[BindingPattern]] = {}

    def region(self, region: Region, known: Known) -> None:
        """Canonicalize ``region`` in program order; ``known`` grows with the casts
        of its scope (a dataflow block shares the scope of its parent)."""
        block = region.block
        for op in list(block.ops):
            if known:
                self.substitute(op, known)
            if isinstance(op, IfOp):
                self.branches(op, known)
            elif isinstance(op, DataflowOp):
                self.region(op.body, known)
                self.dataflows.append(op)
                self.blocks[block] = None
            else:
                for inner in op.regions:
                    self.region(inner, dict(known))
            self.refiner.refine(op)
            self.simplify(op, known)

    def branches(self, op: IfOp, known: Known) -> None:
        """Each branch in its own scope; a branch whose value lost the StructInfo
        of the ``if`` to symbolic variables known only inside it casts back to it
        (the cast cannot fail: the branch's casts checked those variables)."""
        sinfo = op.result.type
        for region in (op.then_region, op.else_region):
            before = _yielded(region).type
            self.region(region, dict(known))
            terminator = region.block.last_op
            assert isinstance(terminator, YieldOp)
            value = terminator.value
            if is_base_of(sinfo, before) and not is_base_of(sinfo, value.type):  # pyright: ignore
                cast = MatchCastOp(value, sinfo)  # pyright: ignore[reportArgumentType]
                cast.result.name_hint = value.name_hint
                region.block.insert_op_before(cast, terminator)
                terminator.operands[0] = cast.result

    def substitute(self, op: Operation, known: Known) -> None:
        """Replace the known symbolic variables in what ``op`` declares."""
        if isinstance(op, ShapeOp):
            op.dims = ShapeAttr(tuple(substitute_expr(d, known) for d in op.dims.data))
        elif isinstance(op, PrimValueOp):
            op.value = PrimExprAttr(substitute_expr(op.value.data, known))
        if isinstance(op, LambdaOp):
            for param in op.params:
                self.refiner.set_type(param, substitute_free(param.type, known))  # pyright: ignore
            if isinstance(op.ret_type, StructInfoType):
                op.ret_type = substitute_free(op.ret_type, known)
            if op.self_reference is not None:
                self.refiner.set_type(op.self_reference, op.function_type())
        elif isinstance(op, MatchCastOp):
            target = substitute_free(op.target, known)
            if not never_matches(op.value.type, target):  # pyright: ignore[reportArgumentType]
                self.refiner.set_type(op.result, target)
        elif not isinstance(op, DataflowOp):
            for result in op.results:
                self.refiner.set_type(result, substitute_free(result.type, known))  # pyright: ignore

    def simplify(self, op: Operation, known: Known) -> None:
        """Forward ``op``'s result when the binding is trivial (the patterns of
        ``canonicalization.bindings``), after learning what a cast establishes."""
        if isinstance(op, MatchCastOp):
            self.learn(op, known)
        for pattern in self.patterns_of(type(op)):
            if (found := pattern.replacement(op)) is not None:
                if is_base_of(op.results[0].type, found.value.type):  # pyright: ignore
                    self.refiner.replace(op.results[0], found.value)
                    erase_unused(op)
                return

    def patterns_of(self, kind: type[Operation]) -> list[BindingPattern]:
        found = self._patterns.get(kind)
        if found is None:
            found = self._patterns[kind] = [p for p in PATTERNS if issubclass(kind, p.root)]
        return found

    def learn(self, cast: MatchCastOp, known: Known) -> None:
        """Learn the variables of the target that stand alone where the value's
        StructInfo has an expression: after the cast, they equal it."""
        source = cast.value.type
        assert isinstance(source, StructInfoType)
        learned = {
            name: expr
            for name, expr in signature_mapping([cast.target], [source]).items()
            if name not in free_vars(expr)
        }
        if not learned:
            return
        target = substitute_free(cast.target, learned)
        if never_matches(cast.value.type, target):  # pyright: ignore[reportArgumentType]
            return
        for name, expr in known.items():
            known[name] = substitute_expr(expr, learned)
        known.update(learned)
        self.refiner.set_type(cast.result, target)

    def finish(self) -> None:
        """Export from each dataflow block only what is used outside it, then
        consolidate the blocks (a block may now be empty or next to another)."""
        for dataflow in self.dataflows:
            prune_outputs(dataflow, drop_unused=True)
        for block in self.blocks:
            merge_adjacent_dataflows(block)


def _yielded(region: Region) -> SSAValue:
    terminator = region.block.last_op
    assert isinstance(terminator, YieldOp)
    return terminator.value


def substitute_free(sinfo: StructInfoType, known: Mapping[str, PrimExpr]) -> StructInfoType:
    """``sinfo`` with the known variables substituted, except those a function
    type binds with its own parameters."""
    if not known or used_vars(sinfo).isdisjoint(known):
        return sinfo
    if isinstance(sinfo, TupleType):
        return TupleType([substitute_free(field, known) for field in sinfo.types])
    if isinstance(sinfo, FuncType):
        own = definable_vars(sinfo.param_types or ())
        return substitute_vars(sinfo, {k: v for k, v in known.items() if k not in own})
    return substitute_vars(sinfo, known)
