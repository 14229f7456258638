"""``relax.ewise_fma`` → ``linalg.generic`` computing ``x1 * x2 + x3`` (no fused
multiply-add: two roundings, as the reference kernel)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from relax_dialect.ops.ternary import EwiseFmaOp

from ..lowerer import Lowerer
from . import lowers
from .common import binary, data_type, elementwise


@lowers(EwiseFmaOp)
def lower_ewise_fma(lw: Lowerer, op: EwiseFmaOp) -> SSAValue:
    dtype = data_type(op.x1.type)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        product = binary(lw, dtype, arith.MulfOp, arith.MuliOp, xs[0], xs[1])
        return binary(lw, dtype, arith.AddfOp, arith.AddiOp, product, xs[2])

    return elementwise(lw, op, list(op.operands), body, lw.result_type(op))
