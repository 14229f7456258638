"""``relax-lower-to-linalg``: prepare a module with Relax passes, then lower it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from relax_dialect.instrumentation import RunsPasses, run_pass
from relax_dialect.passes.pipelines import Pipeline

from .convert_relax_to_linalg import ConvertRelaxToLinalgPass


@dataclass(frozen=True)
class PrepareForLoweringPass(Pipeline):
    """``relax-normalize``, ``relax-widen-float-formats``, ``relax-lambda-lift``,
    ``relax-to-non-dataflow``, the module checked for well-formedness after each."""

    name = "relax-prepare-for-lowering"
    PASSES: ClassVar[tuple[str, ...]] = (
        "relax-normalize",
        "relax-widen-float-formats",
        "relax-lambda-lift",
        "relax-to-non-dataflow",
    )


@dataclass(frozen=True)
class LowerToLinalgPass(RunsPasses, ModulePass):
    """``relax-prepare-for-lowering``, then ``convert-relax-to-linalg``."""

    name = "relax-lower-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_pass(PrepareForLoweringPass(), ctx, op)
        run_pass(ConvertRelaxToLinalgPass(), ctx, op)


def lower(module: ModuleOp) -> ModuleOp:
    """A lowered copy of ``module`` (raises a located ``LoweringError``)."""
    lowered = module.clone()
    run_pass(LowerToLinalgPass(), Context(), lowered)
    return lowered
