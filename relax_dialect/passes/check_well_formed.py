"""``relax-check-well-formed``: run the well-formedness checker as a pass."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..diagnostics import DiagnosticError
from ..well_formed import check_well_formed


@dataclass(frozen=True)
class CheckWellFormedPass(ModulePass):
    """Fail with located diagnostics when the module breaks a well-formedness rule
    (``relax-opt`` runs this check after parsing and between passes on its own)."""

    name = "relax-check-well-formed"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if diagnostics := check_well_formed(op):
            raise DiagnosticError(diagnostics)
