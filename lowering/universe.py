"""The ``xdsl.universe`` entry point of the lowering passes (``xdsl-opt``, ``relax-opt``);
loading it wires the lowered interpreter as the executor of ``call_tir`` targets
(``relax-fold-constant`` under plain ``xdsl-opt``)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.universe import Universe

from . import LOWERING_PASSES, lowering_pass_class, wire_tir_executor


def _loader(name: str) -> Callable[[], type[ModulePass]]:
    return lambda: lowering_pass_class(name)


LOWERING_UNIVERSE = Universe(all_passes={name: _loader(name) for name in LOWERING_PASSES})
wire_tir_executor()
