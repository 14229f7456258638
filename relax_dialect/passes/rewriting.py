"""What the passes share: walking functions and bindings, replacing values,
rebuilding dataflow blocks, and re-inferring StructInfo after a change."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from ..ops.base import BindingOp
from ..ops.control_flow import IfOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import FunctionOp, LambdaOp
from ..types import StructInfoType


def functions(module: ModuleOp) -> list[FunctionOp]:
    """The module's global Relax functions, in order."""
    return [op for op in module.body.block.ops if isinstance(op, FunctionOp)]


def function_named(module: ModuleOp, name: str) -> FunctionOp | None:
    return next((f for f in functions(module) if f.sym_name.data == name), None)


def walk_ops(region: Region) -> Iterator[Operation]:
    """Every operation of ``region`` and its nested regions, in program order
    (an operation before the operations of its regions)."""
    for block in region.blocks:
        for op in block.ops:
            yield op
            for inner in op.regions:
                yield from walk_ops(inner)


def set_type(value: SSAValue, sinfo: StructInfoType) -> SSAValue:
    """``value`` with StructInfo ``sinfo`` (a new value when it changes; uses follow)."""
    if value.type == sinfo:
        return value
    return Rewriter.replace_value_with_new_type(value, sinfo)


def replace_binding(op: Operation, value: SSAValue) -> None:
    """Replace the result of the binding ``op`` by ``value`` everywhere, then erase it."""
    op.results[0].replace_all_uses_with(value)
    op.detach()
    op.erase()


def erase_unused(op: Operation) -> None:
    """Erase an operation whose results have no uses."""
    assert all(not result.uses for result in op.results)
    op.detach()
    op.erase()


def rebuild_dataflow(dataflow: DataflowOp, outputs: Sequence[SSAValue]) -> DataflowOp:
    """A dataflow block exporting ``outputs`` (inner values) instead of its current
    outputs; uses of a kept output follow it, the others must be gone already."""
    old_outputs = list(dataflow.output_op.values)
    block = dataflow.body.block
    block.erase_op(dataflow.output_op)
    block.add_op(OutputOp(list(outputs)))
    rebuilt = DataflowOp(dataflow.detach_region(dataflow.body))
    parent = dataflow.parent_block()
    assert parent is not None
    parent.insert_op_before(rebuilt, dataflow)
    for inner, result in zip(old_outputs, dataflow.results, strict=True):
        if inner in outputs:
            kept = rebuilt.results[list(outputs).index(inner)]
            kept.name_hint = result.name_hint
            result.replace_all_uses_with(kept)
    erase_unused(dataflow)
    return rebuilt


def reinfer(region: Region) -> None:
    """Give every binding of ``region`` (nested regions first) the StructInfo its
    derivation rule infers now, after a change upstream: operators and calls
    re-infer, ``if`` joins its branches, dataflow blocks take their outputs'
    types, closures their function type. Declared types (packed calls,
    ``match_cast``) are kept, as their inference returns them."""
    for block in region.blocks:
        reinfer_block(block)


def reinfer_block(block: Block) -> None:
    for op in list(block.ops):
        for inner in op.regions:
            reinfer(inner)
        if isinstance(op, DataflowOp):
            for result, value in zip(op.results, op.output_op.values, strict=True):
                set_type(result, value.type)  # pyright: ignore[reportArgumentType]
        elif isinstance(op, LambdaOp):
            set_type(op.result, op.function_type())
        elif isinstance(op, BindingOp | IfOp):
            set_type(op.results[0], op.infer_type())
