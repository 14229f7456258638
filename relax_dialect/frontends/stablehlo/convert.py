"""``convert``: a StableHLO module as a Relax module (the rules of every
``convert_*`` module registered)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ...passes.dce import DeadCodeEliminationPass
from . import (  # noqa: F401  (each registers its rules)
    convert_contractions,
    convert_control,
    convert_elementwise,
    convert_indexing,
    convert_reductions,
    convert_shapes,
)
from .converter import Converter


def convert(module: ModuleOp) -> ModuleOp:
    """The Relax module of a StableHLO module, without the bindings nothing uses
    (the shape assertions' comparisons, constants left unused); raises
    ``DiagnosticError`` (located) for what it cannot convert."""
    converted = Converter(module).convert()
    DeadCodeEliminationPass().apply(Context(), converted)
    return converted
