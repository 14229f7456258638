"""``relax.astype`` and ``relax.wrap_param`` → an element-wise conversion (TIR's cast,
see ``common.convert``)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from relax_dialect.ops.datatype import AstypeOp, ConvertOp, WrapParamOp

from ..lowerer import Lowerer
from . import lowers
from .common import convert, data_type, elementwise


@lowers(AstypeOp, WrapParamOp)
def lower_convert(lw: Lowerer, op: ConvertOp) -> SSAValue:
    source = data_type(op.x.type)
    result = lw.result_type(op)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        return convert(lw, xs[0], source, result.data_type)

    return elementwise(lw, op, [op.x], body, result)
