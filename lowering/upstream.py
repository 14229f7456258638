"""Upstream MLIR operations the lowering emits that xDSL 0.74 does not define."""

from __future__ import annotations

from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """``arith.remf``: the remainder of the truncated division, C's ``fmod``."""

    name = "arith.remf"
    traits = traits_def(Pure())
