"""``relax-cse``: common subexpression elimination (TVM's ``EliminateCommonSubexpr``)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.passes import ModulePass

from ..analysis.call_graph import functions
from ..analysis.effects import function_purity, is_pure_binding, writes_in_place, written_in_place
from ..ops.alias import AliasOp
from ..ops.base import BindingOp
from ..ops.dataflow import DataflowOp
from ..ops.functions import LambdaOp
from ..ops.match_cast import MatchCastOp
from ..ops.values import (
    LEAVES,
    TupleGetItemOp,
)
from ..rewriting.bindings import replace_binding
from ..rewriting.dataflow_blocks import merge_adjacent_dataflows, tidy_dataflow

NOT_CALLS = (*LEAVES, TupleGetItemOp, MatchCastOp, AliasOp)
"""Bindings of values that are not calls (never merged with ``call-only``)."""


@dataclass(frozen=True)
class EliminateCommonSubexprPass(ModulePass):
    """Replace a binding that computes what an earlier binding in scope computed
    (same operation, operands, attributes and result type; for a
    ``relax.match_cast``, the same value and target) by that earlier value.
    Leaf operands (constants, shapes, prim values, tuples of them...) compare
    by value. Impure operations, in-place calls, values an in-place call writes
    into and operations with regions are never merged. Scopes follow TVM: a
    dataflow block's inner values do not outlive it (its outputs do), an ``if``
    branch sees the bindings before the ``if`` but not the other branch's, and
    a closure body starts afresh."""

    name = "relax-cse"

    call_only: bool = False
    """Only merge calls (operators, function and packed calls), like TVM's ``call_only``."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        purity = function_purity(op)
        for function in functions(op):
            _Eliminator(purity, self.call_only).block(function.body.block)


def _normalized_properties(op: Operation) -> tuple[tuple[str, Attribute | None], ...]:
    """The properties with declared defaults filled in (an omitted default and a
    written one are the same)."""
    properties = dict(op.properties)
    if isinstance(op, IRDLOperation):
        for name, definition in op.get_irdl_definition().properties.items():
            if properties.get(name) is None:
                properties[name] = getattr(definition, "default_value", None)
    return tuple(sorted(properties.items()))


class _Key:
    """What a binding computes, hashed once (types hash deeply)."""

    __slots__ = ("hash", "parts")

    def __init__(self, parts: tuple[Hashable, ...]):
        self.parts = parts
        self.hash = hash(parts)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and self.hash == other.hash and self.parts == other.parts


@dataclass
class _Run:
    """The last dataflow block met in a block, while only eliminated bindings
    follow it: the next dataflow block is merged into it (as the normal form
    asks) and shares its scope, so that a second run finds nothing more."""

    dataflow: DataflowOp
    mark: int
    """The length of the log before the block."""
    inner: list[tuple[_Key, SSAValue]] = field(default_factory=list[tuple[_Key, SSAValue]])
    """The keys bound to the block's inner values, to reopen its scope."""


def _captures(dataflow: DataflowOp, later: DataflowOp) -> bool:
    """Whether a closure in ``later`` uses an output of ``dataflow`` (merging the
    two blocks moves it out, in front of ``later``)."""
    inner = later.body.block
    return any(
        use.operation.parent is not inner and later.is_ancestor(use.operation)
        for result in dataflow.results
        for use in result.uses
    )


class _Eliminator:
    def __init__(self, purity: dict[str, bool], call_only: bool):
        self.purity = purity
        self.call_only = call_only
        self.table: dict[_Key, SSAValue] = {}
        self.log: list[_Key] = []
        self.leaves: dict[SSAValue, SSAValue] = {}
        self.first_leaf: dict[_Key, SSAValue] = {}

    def key(self, op: Operation) -> _Key | None:
        if not isinstance(op, BindingOp) or op.regions or writes_in_place(op):
            return None
        if self.call_only and isinstance(op, NOT_CALLS):
            return None
        if not is_pure_binding(op, self.purity) or written_in_place(op.results[0]):
            return None
        return self.structure(op)

    def structure(self, op: Operation) -> _Key:
        """What ``op`` computes: its name, operands, attributes and result type."""
        return _Key(
            (
                op.name,
                tuple(self.operand(value) for value in op.operands),
                _normalized_properties(op),
                tuple(sorted(op.attributes.items())),
                tuple(op.result_types),
            )
        )

    def operand(self, value: SSAValue) -> SSAValue:
        """``value``, or for a leaf the first leaf seen with the same value
        (unless written in place)."""
        found = self.leaves.get(value)
        if found is None:
            owner = value.owner
            if isinstance(owner, LEAVES) and not written_in_place(value):
                found = self.first_leaf.setdefault(self.structure(owner), value)
            else:
                found = value
            self.leaves[value] = found
        return found

    def block(self, block: Block) -> None:
        self.ops(list(block.ops))

    def ops(self, ops: list[Operation]) -> None:
        run: _Run | None = None
        for op in ops:
            if isinstance(op, DataflowOp):
                run = self.dataflow(op, run)
            elif isinstance(op, LambdaOp):
                self.fresh_scope(op.body.block)
            elif op.regions:
                for region in op.regions:
                    mark = len(self.log)
                    self.block(region.block)
                    self.restore(mark)
            else:
                self.binding(op)

    def binding(self, op: Operation) -> None:
        """Replace ``op`` by an earlier binding of the same value, or remember it."""
        key = self.key(op)
        if key is None:
            return
        earlier = self.table.get(key)
        if earlier is not None:
            replace_binding(op, earlier)
        else:
            self.table[key] = op.results[0]
            self.log.append(key)

    def dataflow(self, dataflow: DataflowOp, previous: _Run | None) -> _Run | None:
        """Eliminate in a dataflow block: its inner values go out of scope at its
        end, its outputs stay. Returns the run it ends (``None`` if it is gone)."""
        output = dataflow.output_op
        body = [op for op in dataflow.body.block.ops if op is not output]
        run = None
        if previous is not None and dataflow.prev_op is previous.dataflow:
            # Only eliminated bindings separated the blocks: merge them, in one
            # scope unless closures move out of the later one.
            if not _captures(previous.dataflow, dataflow):
                self.reopen(previous)
                run = previous
            parent = dataflow.parent_block()
            assert parent is not None
            merge_adjacent_dataflows(parent, [previous.dataflow, dataflow])
            dataflow = next((op.parent_op() for op in body if _in_dataflow(op)), None)  # pyright: ignore[reportAssignmentType]
        if dataflow is None:  # it held only closures, now in front of it
            self.ops(body)
            return None
        if run is None:
            run = _Run(dataflow, len(self.log))
        self.ops(body)
        return self.close(run, dataflow)

    def close(self, run: _Run, dataflow: DataflowOp) -> _Run | None:
        """End the scope of a dataflow block: its keys follow its outputs."""
        run.inner = [(key, self.table[key]) for key in self.log[run.mark :]]
        self.restore(run.mark)
        tidied = tidy_dataflow(dataflow)
        if tidied is None:
            return None
        run.dataflow = tidied
        exported: dict[SSAValue, SSAValue] = {}
        for value, result in zip(tidied.output_op.values, tidied.results, strict=True):
            exported.setdefault(value, result)
        for key, value in run.inner:
            result = exported.get(value)
            if result is not None and not written_in_place(result):
                self.table[key] = result
                self.log.append(key)
        return run

    def reopen(self, run: _Run) -> None:
        """Bring the inner values of a closed dataflow block back into scope."""
        self.restore(run.mark)
        for key, value in run.inner:
            self.table[key] = value
            self.log.append(key)

    def fresh_scope(self, block: Block) -> None:
        saved = self.table, self.log
        self.table, self.log = {}, []
        self.block(block)
        self.table, self.log = saved

    def restore(self, mark: int) -> None:
        for key in self.log[mark:]:
            del self.table[key]
        del self.log[mark:]


def _in_dataflow(op: Operation) -> bool:
    return isinstance(op.parent_op(), DataflowOp)
