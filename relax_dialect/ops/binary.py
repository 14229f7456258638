"""Element-wise binary operators with NumPy broadcasting over symbolic shapes."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure

from ..dtype import DataType
from ..prim_expr import IntImm
from ..types import UNKNOWN_NDIM, PrimType, StructInfoType, TensorType
from .base import relax_type
from .inference import binary_arith_dtype, broadcast_dims
from .operator import OperatorOp


class BinaryBroadcastOp(OperatorOp):
    """``relax.<op> %lhs, %rhs``: tensors (or prim values) broadcast together.

    Inference follows TVM: a prim value acts as a tensor of shape ``[1]``; when
    the broadcast cannot be decided statically only the rank is kept.
    """

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: StructInfoType):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def result_dtype(self, lhs: StructInfoType, rhs: StructInfoType) -> DataType:
        return binary_arith_dtype(self.name, lhs, rhs)

    def infer_type(self) -> StructInfoType:
        lhs = relax_type(self.name, self.lhs)
        rhs = relax_type(self.name, self.rhs)
        dtype = self.result_dtype(lhs, rhs)
        if isinstance(lhs, PrimType) and isinstance(rhs, PrimType):
            return PrimType(dtype)
        left, right = _as_dims(lhs), _as_dims(rhs)
        if left is not None and right is not None:
            dims = broadcast_dims(self.name, left, right)
            if dims is not None:
                return TensorType(dims, dtype)
        ranks = [_rank(lhs), _rank(rhs)]
        ndim = UNKNOWN_NDIM if UNKNOWN_NDIM in ranks else max(ranks)
        return TensorType(dtype=dtype, ndim=ndim)


def _as_dims(sinfo: StructInfoType) -> tuple | None:
    if isinstance(sinfo, PrimType):
        return (IntImm(1),)
    assert isinstance(sinfo, TensorType)
    return sinfo.dims


def _rank(sinfo: StructInfoType) -> int:
    return 1 if isinstance(sinfo, PrimType) else sinfo.rank  # pyright: ignore


@irdl_op_definition
class AddOp(BinaryBroadcastOp):
    """Element-wise sum: ``relax.add %a, %b``."""

    name = "relax.add"


OPERATIONS = [AddOp]
