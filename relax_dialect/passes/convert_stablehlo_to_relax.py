"""``convert-stablehlo-to-relax``: a module of StableHLO functions as Relax."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..frontends.stablehlo.convert import convert

JAX_MODULE_ATTRIBUTES = frozenset(
    {"mhlo.num_partitions", "mhlo.num_replicas", "jax.uses_shape_polymorphism"}
)
"""The attributes JAX gives a module, which say nothing once it is Relax."""


@dataclass(frozen=True)
class ConvertStableHLOToRelax(ModulePass):
    """Convert StableHLO (and CHLO) to Relax: public functions become Relax
    functions whose symbolic dimensions keep the names ``jax.export`` gave them,
    private functions are inlined, ``while`` becomes a recursive function; an
    operation it cannot convert is a located error naming it."""

    name = "convert-stablehlo-to-relax"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        """Replaces the module's ``func.func``s by the Relax functions they
        become; a module without them (Relax already) is left as it is."""
        functions = [f for f in op.body.block.ops if isinstance(f, func.FuncOp)]
        if not functions:
            return
        converted = convert(op)
        for old in functions:
            old.detach()
            old.erase()
        for attribute in JAX_MODULE_ATTRIBUTES & op.attributes.keys():
            del op.attributes[attribute]
        for new in list(converted.body.block.ops):
            new.detach()
            op.body.block.add_op(new)
