"""Named pipelines: ``relax-o1`` (normalization and dataflow optimizations) and
``relax-o2`` (``relax-o1``, then operator fusion), usable as ``-p relax-o1``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..diagnostics import DiagnosticError
from ..instrumentation import RunsPasses, run_pass, stage
from ..recheck import recheck_well_formed
from . import pass_class

O1 = (
    "relax-normalize",
    "relax-canonicalize-bindings",
    "relax-simplify-shapes",
    "relax-fold-constant",
    "relax-cse",
    "relax-dce",
)


@dataclass(frozen=True)
class Pipeline(RunsPasses, ModulePass):
    """A fixed sequence of passes, the module checked for well-formedness after each
    (unless the pass left it unchanged: ``recheck_well_formed``; with
    ``verify-each=false``, as ``mlir-opt -verify-each=0``, not at all). Each inner
    pass and check is a stage of its own for the instrumentation."""

    PASSES: ClassVar[tuple[str, ...]]
    verify_each: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for index, name in enumerate(self.PASSES, 1):
            run_pass(pass_class(name)(), ctx, op)
            if not self.verify_each:
                continue
            with stage("Verifier", op):
                diagnostics = recheck_well_formed(op, again=index < len(self.PASSES))
            if diagnostics:
                note = f"after pass {name}: "
                raise DiagnosticError([replace(d, message=note + d.message) for d in diagnostics])


@dataclass(frozen=True)
class O1Pass(Pipeline):
    """``relax-normalize``, ``relax-canonicalize-bindings``,
    ``relax-simplify-shapes``, ``relax-fold-constant``, ``relax-cse``, ``relax-dce``."""

    name = "relax-o1"
    PASSES: ClassVar[tuple[str, ...]] = O1


@dataclass(frozen=True)
class O2Pass(Pipeline):
    """``relax-o1``, then ``relax-fuse-ops`` and a final ``relax-dce``."""

    name = "relax-o2"
    PASSES: ClassVar[tuple[str, ...]] = (*O1, "relax-fuse-ops", "relax-dce")
