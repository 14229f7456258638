"""The ``xdsl.universe`` entry point: plain ``xdsl-opt`` loads the dialect and passes (and
the StableHLO and CHLO dialects the StableHLO frontend reads)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe


def _relax() -> Dialect:
    from .dialect import Relax

    return Relax


def _stablehlo() -> Dialect:
    from .frontends.stablehlo.dialect import StableHLO

    return StableHLO


def _chlo() -> Dialect:
    from .frontends.stablehlo.dialect import CHLO

    return CHLO


def _loader(name: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        from .passes import pass_class

        return pass_class(name)

    return load


def _passes() -> dict[str, Callable[[], type[ModulePass]]]:
    from .passes import PASSES

    return {name: _loader(name) for name in PASSES}


RELAX_UNIVERSE = Universe(
    all_dialects={"relax": _relax, "stablehlo": _stablehlo, "chlo": _chlo}, all_passes=_passes()
)
