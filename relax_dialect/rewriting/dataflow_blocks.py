"""Dataflow blocks in normal form: what a block exports (``with_outputs``,
``prune_outputs``), empty blocks removed, adjacent blocks merged into one (normal
form rule 4, ``merge_adjacent_dataflows``) and closures that capture a block's
values kept out of it (``hoist_capturing_closures``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.ir import Block, Operation, SSAValue

from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import LambdaOp
from .bindings import erase_unused


def defined_in(value: SSAValue, block: Block) -> bool:
    owner = value.owner
    return isinstance(owner, Operation) and owner.parent is block


def with_outputs(dataflow: DataflowOp, outputs: Sequence[SSAValue]) -> DataflowOp:
    """A new dataflow block, inserted before ``dataflow``, that takes its body and
    exports ``outputs``; ``dataflow`` is left without a body and its results keep
    their uses (for the caller to redirect)."""
    block = dataflow.body.block
    block.erase_op(dataflow.output_op)
    block.add_op(OutputOp(list(outputs)))
    rebuilt = DataflowOp(dataflow.detach_region(dataflow.body))
    dataflow.parent_block().insert_op_before(rebuilt, dataflow)  # pyright: ignore
    return rebuilt


def prune_outputs(dataflow: DataflowOp, drop_unused: bool) -> DataflowOp:
    """Stop exporting values defined outside the block (their uses take the value
    itself), a value twice (the uses take the first output) and, with
    ``drop_unused``, values nobody reads. Returns the block, rebuilt if changed."""
    block = dataflow.body.block
    exported: dict[SSAValue, int] = {}
    targets: list[SSAValue | int | None] = []
    for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
        if drop_unused and result.first_use is None:
            targets.append(None)
        elif not defined_in(value, block):
            targets.append(value)
        else:
            targets.append(exported.setdefault(value, len(exported)))
    outputs = list(exported)
    if outputs == list(dataflow.output_op.values):
        return dataflow
    rebuilt = with_outputs(dataflow, outputs)
    for result, target in zip(dataflow.results, targets, strict=True):
        if isinstance(target, int):
            new = rebuilt.results[target]
            new.name_hint = new.name_hint or result.name_hint
            target = new
        if target is not None:
            result.replace_all_uses_with(target)
    erase_unused(dataflow)
    return rebuilt


def remove_empty_dataflow(dataflow: DataflowOp) -> None:
    """Replace the results of a dataflow block without bindings by the outer values
    it exports, and erase it."""
    for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
        result.replace_all_uses_with(value)
    erase_unused(dataflow)


def is_empty(dataflow: DataflowOp) -> bool:
    return dataflow.body.block.first_op is dataflow.output_op


def tidy_dataflow(dataflow: DataflowOp) -> DataflowOp | None:
    """Forward outputs defined outside the block; erase the block if it has no
    binding left (returns ``None`` then)."""
    if is_empty(dataflow):
        remove_empty_dataflow(dataflow)
        return None
    return prune_outputs(dataflow, drop_unused=False)


def merge_adjacent_dataflows(
    block: Block, ops: Iterable[Operation] | None = None, drop_unused: bool = True
) -> None:
    """Remove the empty dataflow blocks of ``block`` (among ``ops``, a contiguous
    range of it, or all of it) and merge each run of adjacent ones into one, as
    TVM's block builder does when it normalizes a sequence. An output of an
    earlier block used in a later one becomes the inner value there; the merged
    block exports the other outputs, pruned (``prune_outputs``) with
    ``drop_unused``.

    A closure in a later block that captures an output of an earlier one could
    not stay in the merged block (it would capture a dataflow variable of its own
    block): it moves out, just before its block, which then starts a new run."""
    run: list[DataflowOp] = []
    run_results: set[SSAValue] = set()

    def flush() -> None:
        if len(run) > 1:
            merged = _merge(run)
            if drop_unused:
                prune_outputs(merged, drop_unused=True)
        run.clear()
        run_results.clear()

    for op in list(block.ops if ops is None else ops):
        if not isinstance(op, DataflowOp):
            flush()
            continue
        if run and hoist_capturing_closures(op, run_results):
            flush()
        if is_empty(op):
            remove_empty_dataflow(op)
            continue
        run.append(op)
        run_results.update(op.results)
    flush()


def captures(op: Operation, values: set[SSAValue]) -> bool:
    """Whether the closure ``op`` uses one of ``values`` (it could not be in their
    dataflow block: well-formedness rule 10)."""
    return isinstance(op, LambdaOp) and any(
        operand in values for inner in op.walk() for operand in inner.operands
    )


def hoist_capturing_closures(dataflow: DataflowOp, values: set[SSAValue]) -> bool:
    """Move the closures of ``dataflow`` that capture one of ``values`` just before
    it; whether any moved."""
    hoisted = False
    for op in list(dataflow.body.block.ops):
        if captures(op, values):
            op.detach()
            dataflow.parent_block().insert_op_before(op, dataflow)  # pyright: ignore
            hoisted = True
    return hoisted


def _merge(run: Sequence[DataflowOp]) -> DataflowOp:
    """One dataflow block for adjacent ones, exporting all their outputs."""
    target = run[0]
    body, anchor = target.body.block, target.output_op
    inner: dict[SSAValue, SSAValue] = {}
    outputs: list[SSAValue] = []
    for dataflow in run:
        for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
            value = inner.get(value, value)
            inner[result] = value
            outputs.append(value)
    for dataflow in run[1:]:
        for op in list(dataflow.body.block.ops)[:-1]:
            op.detach()
            body.insert_op_before(op, anchor)
    for dataflow in run[:-1]:
        for result in dataflow.results:
            result.replace_uses_with_if(
                inner[result], lambda use: target.is_ancestor(use.operation)
            )
    merged = with_outputs(target, outputs)
    results = [result for dataflow in run for result in dataflow.results]
    for old, new in zip(results, merged.results, strict=True):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    for dataflow in run:
        erase_unused(dataflow)
    return merged
