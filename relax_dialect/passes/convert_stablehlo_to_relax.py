"""``convert-stablehlo-to-relax``: a module of StableHLO functions as Relax."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..frontends.stablehlo.convert import convert


@dataclass(frozen=True)
class ConvertStableHLOToRelax(ModulePass):
    """Convert StableHLO (and CHLO) to Relax: public functions become Relax
    functions whose symbolic dimensions keep the names ``jax.export`` gave them,
    private functions are inlined, ``while`` becomes a recursive function; an
    operation it cannot convert is a located error naming it."""

    name = "convert-stablehlo-to-relax"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converted = convert(op)
        for old in list(op.body.block.ops):
            old.detach()
            old.erase()
        op.attributes.clear()
        op.properties.clear()
        for new in list(converted.body.block.ops):
            new.detach()
            op.body.block.add_op(new)
