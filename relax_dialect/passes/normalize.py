"""``relax-normalize``: StructInfo re-inferred everywhere, dataflow blocks consolidated."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Region
from xdsl.passes import ModulePass

from ..analysis.call_graph import functions_callees_first
from ..rewriting.dataflow_blocks import merge_adjacent_dataflows
from ..rewriting.type_refiner import TypeRefiner


@dataclass(frozen=True)
class NormalizePass(ModulePass):
    """Bring every function into normal form, as TVM's ``Normalize``: each binding
    gets the StructInfo its derivation rule infers (a declared type stronger than
    the inferred one is kept, as TVM keeps annotations), adjacent dataflow blocks
    are merged into one and empty ones removed (their results are the outer values
    they export). Functions are visited callees first, so that a call sees the
    final type of a callee without return annotation."""

    name = "relax-normalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        refiner = TypeRefiner()
        for function in functions_callees_first(op):
            normalize_region(function.body, refiner)
            refiner.check_return(function)


def normalize_region(region: Region, refiner: TypeRefiner) -> None:
    """Consolidate the dataflow blocks of ``region`` and re-infer its bindings, in
    program order, nested regions first."""
    for block in region.blocks:
        merge_adjacent_dataflows(block, drop_unused=False)
        for op in list(block.ops):
            for inner in op.regions:
                normalize_region(inner, refiner)
            refiner.refine(op)
