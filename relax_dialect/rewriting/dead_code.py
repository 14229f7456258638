"""Removing dead bindings: what ``relax-dce`` does inside functions, and what the
passes that inline calls or drop outputs and parameters do to the functions they
change."""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Block, Operation

from ..analysis.effects import EffectFree
from ..ops.dataflow import DataflowOp
from .bindings import erase_unused
from .dataflow_blocks import is_empty, merge_adjacent_dataflows, prune_outputs


def eliminate_dead_code(block: Block, purity: Mapping[str, bool]) -> None:
    """Remove the dead bindings of a body block and its nested regions, in one
    backward sweep (every use follows its definition, so a binding is seen after
    all its users are gone), then restore the dataflow normal form.

    A binding is dead when its value is unused and computing it has no effect
    (``analysis.effects.EffectFree``; ``purity``: the module's functions' purity
    by name, for ``relax.call``)."""
    _DeadCode(EffectFree(purity)).sweep(block)


class _DeadCode:
    def __init__(self, effect_free: EffectFree):
        self.effect_free = effect_free

    def is_dead(self, op: Operation) -> bool:
        return (
            bool(op.results)
            and all(result.first_use is None for result in op.results)
            and self.effect_free(op)
        )

    def sweep(self, block: Block) -> None:
        self.sweep_back(block.last_op)
        merge_adjacent_dataflows(block)

    def sweep_back(self, op: Operation | None) -> None:
        """Sweep ``op`` and the operations before it in its block."""
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

    def sweep_dataflow(self, dataflow: DataflowOp) -> None:
        dataflow = prune_outputs(dataflow, drop_unused=True)
        self.sweep_back(dataflow.output_op.prev_op)
        if is_empty(dataflow):
            erase_unused(dataflow)
