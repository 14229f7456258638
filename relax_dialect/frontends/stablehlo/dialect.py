"""The ``stablehlo`` and ``chlo`` dialects (the subset models use) for xDSL."""

from __future__ import annotations

from xdsl.ir import Dialect

from . import chlo, ops
from .attributes import ATTRIBUTES

StableHLO = Dialect("stablehlo", list(ops.OPERATIONS), list(ATTRIBUTES))
CHLO = Dialect("chlo", list(chlo.OPERATIONS))
