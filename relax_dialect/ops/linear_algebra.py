"""Linear algebra: ``relax.matmul`` with batch broadcasting and 1-D operands."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..dtype import DataType
from ..prim_expr_simplify import prove_not_equal
from ..types import UNKNOWN_NDIM, StructInfoType, TensorType, struct_info_text
from .base import relax_type
from .inference import binary_arith_dtype, broadcast_dims
from .operator import OperatorOp


@irdl_op_definition
class MatmulOp(OperatorOp):
    """Matrix product, NumPy ``matmul`` semantics: ``relax.matmul %a, %b``.

    Leading (batch) dimensions broadcast; a 1-D operand is a row (first) or a
    column (second) vector whose axis is dropped from the result. ``out_dtype``
    overrides the result data type.
    """

    name = "relax.matmul"
    lhs = operand_def()
    rhs = operand_def()
    out_dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        result_type: StructInfoType,
        out_dtype: DataType | None = None,
    ):
        super().__init__(
            operands=[lhs, rhs],
            properties={"out_dtype": None if out_dtype is None else DataTypeAttr(out_dtype)},
            result_types=[result_type],
        )

    def infer_type(self) -> StructInfoType:
        lhs = relax_type(self.name, self.lhs)
        rhs = relax_type(self.name, self.rhs)
        for which, operand in (("first", lhs), ("second", rhs)):
            if not isinstance(operand, TensorType):
                raise VerifyException(
                    f"relax.matmul: the {which} operand has type {struct_info_text(operand)}, "
                    "expected a tensor"
                )
        assert isinstance(lhs, TensorType) and isinstance(rhs, TensorType)
        if self.out_dtype is not None:
            dtype = self.out_dtype.data
        else:
            dtype = binary_arith_dtype(self.name, lhs, rhs)
        if UNKNOWN_NDIM in (lhs.rank, rhs.rank):
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
        for which, operand in (("first", lhs), ("second", rhs)):
            if operand.rank == 0:
                raise VerifyException(f"relax.matmul: the {which} operand is a scalar")
        lhs_vector, rhs_vector = lhs.rank == 1, rhs.rank == 1
        ndim = max(lhs.rank + lhs_vector, rhs.rank + rhs_vector) - lhs_vector - rhs_vector
        if lhs.dims is None or rhs.dims is None:
            return TensorType(dtype=dtype, ndim=ndim)
        lhs_batch = lhs.dims[: max(lhs.rank - 2, 0)]
        rhs_batch = rhs.dims[: max(rhs.rank - 2, 0)]
        reduce_lhs = lhs.dims[-1]
        reduce_rhs = rhs.dims[0] if rhs_vector else rhs.dims[-2]
        if prove_not_equal(reduce_lhs, reduce_rhs):
            raise VerifyException(
                f"relax.matmul: inner dimensions {reduce_lhs} and {reduce_rhs} differ"
            )
        batch = broadcast_dims(self.name, lhs_batch, rhs_batch)
        if batch is None:
            return TensorType(dtype=dtype, ndim=ndim)
        rows = () if lhs_vector else (lhs.dims[-2],)
        cols = () if rhs_vector else (rhs.dims[-1],)
        return TensorType((*batch, *rows, *cols), dtype)


OPERATIONS = [MatmulOp]
