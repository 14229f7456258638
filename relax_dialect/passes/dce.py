"""``relax-dce``: dead code elimination (TVM's ``DeadCodeElimination``); its
dead-binding sweep (``eliminate_dead_code``) serves the passes that inline,
drop outputs or drop parameters too."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ..ops.base import BindingOp
from ..ops.calls import CallOp
from ..ops.control_flow import IfOp, YieldOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import LambdaOp
from ..ops.match_cast import MatchCastOp
from .dataflow_blocks import is_empty, merge_adjacent_dataflows, prune_outputs
from .rewriting import erase_unused, functions
from .symbols import function_purity, is_public, remove_unreachable, symbol_name, symbol_table


@dataclass(frozen=True)
class DeadCodeEliminationPass(ModulePass):
    """Remove bindings whose value is unused and computed without side effects,
    dataflow outputs nobody reads and the bindings only they needed, dataflow
    blocks left empty, and private functions (``relax.function private``,
    ``func.func private`` kernels) that no public function or
    ``entry-functions`` member reaches through calls, ``relax.global_var``,
    ``relax.make_closure`` or ``call_tir``. ``relax.match_cast`` stays: it checks
    at run time and may bind symbolic variables."""

    name = "relax-dce"

    entry_functions: tuple[str, ...] = ()
    """Private functions to keep as roots, like TVM's ``entry_functions``."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not functions(op):
            return
        symbols = symbol_table(op)
        for name in self.entry_functions:
            if name not in symbols:
                raise PassFailedException(f"relax-dce: entry function @{name} is not defined")

        def is_root(top: Operation) -> bool:
            return is_public(top) or symbol_name(top) in self.entry_functions

        remove_unreachable(op, is_root)
        purity = function_purity(op)
        for function in functions(op):
            eliminate_dead_code(function.body.block, purity)
        remove_unreachable(op, is_root)


# --- dead bindings ---------------------------------------------------------------


def eliminate_dead_code(block: Block, purity: dict[str, bool]) -> None:
    """Remove the dead bindings of a body block and its nested regions, in one
    backward sweep (every use follows its definition, so a binding is seen after
    all its users are gone), then restore the dataflow normal form.

    A binding is dead when its value is unused and computing it has no effect:
    it is pure (a ``relax.call`` as pure as its callee, ``purity`` by name), not a
    ``relax.match_cast`` (which may fail), not an in-place call (which writes
    into its arguments), and, for an ``if``, so is everything in its branches.
    Defining a closure has no effect."""
    _DeadCode(purity).sweep(block)


def mutates_arguments(op: Operation) -> bool:
    """In-place calls (``call_tir_inplace``, ``call_inplace_packed``) write into
    arguments: TVM counts them pure, but removing or merging one changes what
    later readers of those arguments see."""
    return "inplace_indices" in op.properties


class _DeadCode:
    def __init__(self, purity: dict[str, bool]):
        self.purity = purity
        self.free_regions: dict[Operation, bool] = {}

    def effect_free(self, op: Operation) -> bool:
        if isinstance(op, LambdaOp):
            return True
        if isinstance(op, IfOp | DataflowOp):
            free = self.free_regions.get(op)
            if free is None:
                free = self.free_regions[op] = (isinstance(op, DataflowOp) or op.is_pure()) and all(
                    self.effect_free(inner)
                    for region in op.regions
                    for inner in region.block.ops
                    if not isinstance(inner, YieldOp | OutputOp)
                )
            return free
        if isinstance(op, MatchCastOp) or not isinstance(op, BindingOp) or mutates_arguments(op):
            return False
        if isinstance(op, CallOp):
            return self.purity.get(op.callee_name, False)
        return op.is_pure()

    def is_dead(self, op: Operation) -> bool:
        return (
            bool(op.results)
            and all(result.first_use is None for result in op.results)
            and self.effect_free(op)
        )

    def sweep(self, block: Block) -> None:
        op = block.last_op
        while op is not None:
            previous = op.prev_op
            if isinstance(op, DataflowOp):
                self.sweep_dataflow(op)
            elif self.is_dead(op):
                erase_unused(op)
            else:
                for region in op.regions:
                    self.sweep(region.block)
            op = previous
        merge_adjacent_dataflows(block)

    def sweep_dataflow(self, dataflow: DataflowOp) -> None:
        dataflow = prune_outputs(dataflow, drop_unused=True)
        op = dataflow.output_op.prev_op
        while op is not None:
            previous = op.prev_op
            if self.is_dead(op):
                erase_unused(op)
            else:
                for region in op.regions:
                    self.sweep(region.block)
            op = previous
        if is_empty(dataflow):
            erase_unused(dataflow)
