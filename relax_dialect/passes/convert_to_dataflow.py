"""``relax-convert-to-dataflow``: wrap runs of pure bindings into dataflow blocks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ..analysis.call_graph import functions, recursive_groups
from ..analysis.effects import is_pure
from ..ops.base import RelaxOp
from ..ops.calls import CallOp, InvokeOp
from ..ops.control_flow import IfOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import LambdaOp
from ..ops.references import GlobalVarOp
from ..rewriting.dataflow_blocks import captures, hoist_capturing_closures, remove_empty_dataflow


@dataclass(frozen=True)
class ConvertToDataflowPass(ModulePass):
    """Wrap each maximal run of at least ``min_size`` consecutive bindings that may
    be in a dataflow block into one, as TVM's ``ConvertToDataflow``: bindings that
    are pure, not an ``if`` and not a call recursive with the enclosing function. An
    existing dataflow block joins the run around it (and stays one even when the
    run is shorter). The new block exports the values used after it."""

    name = "relax-convert-to-dataflow"
    min_size: int = 2

    def __post_init__(self) -> None:
        if self.min_size < 1:
            raise ValueError(f"min-size must be at least 1, got {self.min_size}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        groups = recursive_groups(op)
        for function in functions(op):
            recursive = groups.get(function.sym_name.data, frozenset())
            _Converter(self.min_size, recursive).region(function.body, None)


class _Converter:
    def __init__(self, min_size: int, recursive: frozenset[str]):
        self.min_size = min_size
        self.recursive = recursive
        """Functions recursive with the enclosing global function."""

    def region(self, region: Region, self_reference: SSAValue | None) -> None:
        """Convert ``region`` and the regions nested in it (``self_reference``: the
        enclosing recursive closure, which a dataflow block may not call)."""
        block = region.block
        for op in block.ops:
            for inner in op.regions:
                self.region(
                    inner, op.self_reference if isinstance(op, LambdaOp) else self_reference
                )
        if not isinstance(region.parent_op(), DataflowOp):
            self.block(block, self_reference)

    def block(self, block: Block, self_reference: SSAValue | None) -> None:
        run: list[Operation] = []
        defined: set[SSAValue] = set()
        size = 0

        def flush() -> None:
            nonlocal size
            if size == 0:
                for dataflow in run:
                    remove_empty_dataflow(dataflow)  # pyright: ignore[reportArgumentType]
            elif (len(run) > 1 or not isinstance(run[0], DataflowOp)) and (
                size >= self.min_size or any(isinstance(o, DataflowOp) for o in run)
            ):
                wrap(run)
            run.clear()
            defined.clear()
            size = 0

        for op in list(block.ops)[:-1]:
            if isinstance(op, DataflowOp):
                if hoist_capturing_closures(op, defined):
                    flush()
                bindings = list(op.body.block.ops)[:-1]
                size += len(bindings)
            elif self.may_join(op, self_reference) and not captures(op, defined):
                bindings = [op]
                size += 1
            else:
                flush()
                continue
            run.append(op)
            defined.update(r for binding in bindings for r in binding.results)
            defined.update(op.results)
        flush()

    def may_join(self, op: Operation, self_reference: SSAValue | None) -> bool:
        """Whether ``op`` may be a binding of a dataflow block (well-formedness rule 6)."""
        if isinstance(op, IfOp) or not (isinstance(op, RelaxOp) and is_pure(op)):
            return False
        if isinstance(op, CallOp):
            return op.callee_name not in self.recursive
        if isinstance(op, InvokeOp):
            owner = op.callee.owner
            if isinstance(owner, GlobalVarOp):
                return owner.function.root_reference.data not in self.recursive
            return op.callee is not self_reference
        return True


def wrap(run: Sequence[Operation]) -> DataflowOp:
    """One dataflow block for the consecutive bindings and dataflow blocks of
    ``run``, exporting the values used after it."""
    parent = run[0].parent_block()
    anchor = run[-1].next_op
    assert parent is not None and anchor is not None
    body = Block()
    exports: dict[SSAValue, SSAValue] = {}
    names: dict[SSAValue, str] = {}
    for op in run:
        op.detach()
        if not isinstance(op, DataflowOp):
            body.add_op(op)
            continue
        for binding in list(op.body.block.ops)[:-1]:
            binding.detach()
            body.add_op(binding)
        for result, value in zip(op.results, op.output_op.values, strict=True):
            exports[result] = value = exports.get(value, value)
            if result.name_hint:
                names.setdefault(value, result.name_hint)
    for result, value in exports.items():
        result.replace_all_uses_with(value)
    for op in run:
        if isinstance(op, DataflowOp):
            op.erase()
    outputs = [
        result
        for op in body.ops
        for result in op.results
        if any(not _inside(use.operation, body) for use in result.uses)
    ]
    body.add_op(OutputOp(outputs))
    wrapped = DataflowOp(Region(body))
    parent.insert_op_before(wrapped, anchor)
    for value, result in zip(outputs, wrapped.results, strict=True):
        result.name_hint = names.get(value, value.name_hint)
        value.replace_uses_with_if(result, lambda use: not _inside(use.operation, body))
    return wrapped


def _inside(op: Operation | None, block: Block) -> bool:
    while op is not None:
        if op.parent is block:
            return True
        op = op.parent_op()
    return False
