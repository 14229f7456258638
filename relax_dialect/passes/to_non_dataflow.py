"""``relax-to-non-dataflow``: inline every dataflow block into its parent block."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..ops.dataflow import DataflowOp
from ..rewriting.bindings import erase_unused


@dataclass(frozen=True)
class ToNonDataflowPass(ModulePass):
    """Replace every dataflow block by its bindings, as TVM's ``ToNonDataflow``:
    they move to the enclosing block, in order, and its dataflow variables become
    ordinary ones; an exported value takes the name it had outside the block."""

    name = "relax-to-non-dataflow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dataflow in [inner for inner in op.walk() if isinstance(inner, DataflowOp)]:
            inline_dataflow(dataflow)


def inline_dataflow(dataflow: DataflowOp) -> None:
    """Move the bindings of ``dataflow`` before it and use them in place of its results."""
    parent = dataflow.parent_block()
    assert parent is not None
    moved = set()
    for op in list(dataflow.body.block.ops)[:-1]:
        op.detach()
        parent.insert_op_before(op, dataflow)
        moved.update(op.results)
    for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
        if value in moved and result.name_hint:
            value.name_hint = result.name_hint
            moved.discard(value)
        result.replace_all_uses_with(value)
    erase_unused(dataflow)
