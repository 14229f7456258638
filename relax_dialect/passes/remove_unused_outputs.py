"""``relax-remove-unused-outputs``: drop the tuple fields no caller reads from
private functions (TVM's ``RemoveUnusedOutputs``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ..analysis.call_graph import callees_first, functions, is_recursive, symbol_uses
from ..analysis.effects import function_purity
from ..analysis.symbols import symbol_table
from ..ops.calls import CallOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import FunctionOp, ReturnOp
from ..ops.values import TupleGetItemOp, TupleOp
from ..rewriting.bindings import replace_binding, set_type
from ..rewriting.dead_code import eliminate_dead_code
from ..types import StructInfoType, TupleType


@dataclass(frozen=True)
class RemoveUnusedOutputsPass(ModulePass):
    """For each private function returning a tuple, remove the fields that no
    caller reads: callers' ``relax.tuple_get_item`` indices are renumbered (a
    single remaining field is returned alone, and read directly), the callee
    returns only the fields still read, and what only the removed fields needed
    is removed from its body. Dead bindings are removed from every function
    first (as TVM's pass ends with dead-code elimination), and callers are
    visited before their callees, so a field that only fed a removed one goes
    too. A function whose result is used whole anywhere (returned, passed on,
    put in a tuple), that is used as a value, or that nobody calls keeps its
    outputs."""

    name = "relax-remove-unused-outputs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        purity = function_purity(op)
        for function in functions(op):
            eliminate_dead_code(function.body.block, purity)
        uses = symbol_uses(op)
        table = symbol_table(op)
        candidates = {
            name: function
            for name, function in table.items()
            if isinstance(function, FunctionOp)
            and function.global_symbol is None
            and not uses[name].escapes
            and isinstance(function.result_info(), TupleType)
        }
        for component in reversed(callees_first(uses)):
            changed = True
            while changed:
                changed = False
                for name in component:
                    function = candidates.get(name)
                    if function is not None and _remove_unused_fields(
                        function, uses[name].live_calls()
                    ):
                        eliminate_dead_code(function.body.block, purity)
                        changed = is_recursive(component, uses)


@dataclass
class _Reader:
    """How a call's result is read: the ``tuple_get_item`` operations, and the
    dataflow results it passes through on the way (retyped with it)."""

    items: list[TupleGetItemOp]
    passed: list[tuple[DataflowOp, int]]


def _reader(call: CallOp) -> _Reader | None:
    """The readers of a call's fields, or ``None`` when the tuple is used whole."""
    reader = _Reader([], [])
    values: list[SSAValue] = [call.result]
    while values:
        for use in values.pop().uses:
            user = use.operation
            if isinstance(user, TupleGetItemOp):
                reader.items.append(user)
            elif isinstance(user, OutputOp):
                dataflow = user.parent_op()
                assert isinstance(dataflow, DataflowOp)
                reader.passed.append((dataflow, use.index))
                values.append(dataflow.results[use.index])
            else:
                return None
    return reader


def _narrowed(sinfo: StructInfoType, kept: Sequence[int], arity: int) -> StructInfoType:
    """A tuple type restricted to the ``kept`` fields (the field itself for one)."""
    if not isinstance(sinfo, TupleType) or len(sinfo.types) != arity:
        return sinfo
    fields = [sinfo.types[i] for i in kept]
    return fields[0] if len(fields) == 1 else TupleType(fields)


def _remove_unused_fields(function: FunctionOp, calls: list[CallOp]) -> bool:
    result_type = function.result_info()
    if not calls or not isinstance(result_type, TupleType):
        return False
    arity = len(result_type.types)
    readers = []
    used = [False] * arity
    for call in calls:
        reader = _reader(call)
        if reader is None:
            return False
        for item in reader.items:
            used[item.index.data] = True
        readers.append(reader)
    if all(used):
        return False
    kept = [i for i in range(arity) if used[i]]
    renumbered = {old: new for new, old in enumerate(kept)}
    for call, reader in zip(calls, readers, strict=True):
        set_type(call.result, _narrowed(call.result.type, kept, arity))  # pyright: ignore
        for dataflow, index in reader.passed:
            set_type(dataflow.results[index], dataflow.output_op.values[index].type)  # pyright: ignore
        for item in reader.items:
            if len(kept) == 1:
                replace_binding(item, item.tuple_value)
            else:
                item.index = IntAttr(renumbered[item.index.data])
    if isinstance(function.ret_type, StructInfoType):
        function.ret_type = _narrowed(function.ret_type, kept, arity)
    returned = function.body.block.last_op
    assert isinstance(returned, ReturnOp)
    returned.operands = [_select(returned.value, kept, returned)]
    return True


def _select(value: SSAValue, kept: Sequence[int], user: Operation) -> SSAValue:
    """A value holding the ``kept`` fields of the tuple ``value`` (the field itself
    for one), for ``user``, the terminator of the block where it is needed."""
    owner = value.owner
    block = user.parent_block()
    assert block is not None
    if isinstance(owner, TupleOp) and owner.parent is block:
        all_fields = list(owner.fields)
        fields = [all_fields[i] for i in kept]
    elif isinstance(owner, DataflowOp) and value.has_one_use() and owner.parent is block:
        index = owner.results.index(value)
        output = owner.output_op
        inner = _select(output.values[index], kept, output)
        output.operands = [*output.values[:index], inner, *output.values[index + 1 :]]
        return set_type(owner.results[index], inner.type)  # pyright: ignore[reportArgumentType]
    else:
        fields = []
        for i in kept:
            item = TupleGetItemOp(value, i)
            block.insert_op_before(item, user)
            fields.append(item.result)
    if len(fields) == 1:
        return fields[0]
    selected = TupleOp(fields)
    selected.result.name_hint = value.name_hint
    block.insert_op_before(selected, user)
    return selected.result
