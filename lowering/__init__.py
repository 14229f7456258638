"""Relax → linalg/tensor/arith/func lowering (installed as ``relax_xdsl.lowering``).

``LOWERING_PASSES`` maps each pass name to the module (in this package) that
defines it; ``lowering_pass_class`` loads one lazily, as
``relax_dialect.passes.pass_class`` does for the dialect's passes.
"""

from __future__ import annotations

from importlib import import_module

from xdsl.passes import ModulePass

LOWERING_PASSES: dict[str, str] = {
    "convert-relax-to-linalg": "convert_relax_to_linalg",
    "relax-lower-to-linalg": "pipeline",
}


def lowering_pass_class(name: str) -> type[ModulePass]:
    """The lowering pass registered as ``name``."""
    module = import_module(f"{__name__}.{LOWERING_PASSES[name]}")
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, ModulePass)
            and getattr(value, "name", None) == name
        ):
            return value
    raise LookupError(f"{module.__name__} defines no pass named '{name}'")
