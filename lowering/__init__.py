"""Relax → linalg/tensor/arith/func lowering (installed as ``relax_xdsl.lowering``).

``LOWERING_PASSES`` maps each pass name to the module (in this package) that
defines it; ``lowering_pass_class`` loads one lazily, as
``relax_dialect.passes.pass_class`` does for the dialect's passes.
``wire_tir_executor`` makes the bundled interpreter of lowered IR the executor of
``call_tir`` targets for the reference interpreter and ``relax-fold-constant``.
"""

from __future__ import annotations

from xdsl.passes import ModulePass

from relax_dialect.registry import class_named
from relax_dialect.tir_executor import TIRExecutor, use_tir_executor

LOWERING_PASSES: dict[str, str] = {
    "convert-relax-to-linalg": "convert_relax_to_linalg",
    "relax-lower-to-linalg": "pipeline",
    "outline-kernels": "kernels",
}


def lowering_pass_class(name: str) -> type[ModulePass]:
    """The lowering pass registered as ``name``."""
    return class_named(f"{__name__}.{LOWERING_PASSES[name]}", ModulePass, name)


def wire_tir_executor() -> None:
    """Make the lowered interpreter (``interpreter.tir_executor``) the executor of
    ``call_tir`` targets used when none is given (``relax-opt``, ``relax-run`` and the
    ``xdsl.universe`` entry point call this); it loads when a target first runs."""
    use_tir_executor(_lowered_tir_executor)


def _lowered_tir_executor() -> TIRExecutor:
    from .interpreter.tir_executor import LoweredTIRExecutor

    return LoweredTIRExecutor()
