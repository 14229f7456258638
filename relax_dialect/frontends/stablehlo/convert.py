"""``convert``: a StableHLO module as a Relax module (the rules of every
``convert_*`` module registered)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

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
    """The Relax module of a StableHLO module; raises ``DiagnosticError`` (located)
    for what it cannot convert."""
    return Converter(module).convert()
