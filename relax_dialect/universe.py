"""The ``xdsl.universe`` entry point: plain ``xdsl-opt`` loads the dialect and passes."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe


def _relax() -> Dialect:
    from .dialect import Relax

    return Relax


def _check_well_formed() -> type[ModulePass]:
    from .passes.check_well_formed import CheckWellFormedPass

    return CheckWellFormedPass


PASSES = {"relax-check-well-formed": _check_well_formed}

RELAX_UNIVERSE = Universe(all_dialects={"relax": _relax}, all_passes=PASSES)
