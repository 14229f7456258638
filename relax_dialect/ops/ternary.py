"""Element-wise ternary operators (TVM's ``tensor/ternary.cc``): ``ewise_fma``."""

from __future__ import annotations

from itertools import combinations
from typing import ClassVar

from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..dtype import VOID
from ..prim_expr import to_text
from ..prim_expr_simplify import prove_equal, prove_not_equal
from ..types import UNKNOWN_NDIM, StructInfoType, TensorType
from .fusion import FusionKind, OpPattern
from .operator import OperatorOp
from .placement import Placement


@irdl_op_definition
class EwiseFmaOp(OperatorOp):
    """Element-wise multiply-add ``x1 * x2 + x3`` of three tensors of one shape.

    Inference (TVM's ``InferStructInfoEwiseFMA``, no broadcasting): the
    operands' common shape, rank and data type; known ranks or data types that
    differ, and dimensions provably different, are errors. When a dimension
    cannot be proven equal in all three, only the rank is kept; an unknown
    data type makes the result's unknown.
    """

    name = "relax.ewise_fma"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.COMMON
    x1 = operand_def()
    x2 = operand_def()
    x3 = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        tensors = [
            self.tensor_of(value, which)
            for value, which in zip(self.operands, ("first", "second", "third"), strict=True)
        ]
        ranks = sorted({t.rank for t in tensors} - {UNKNOWN_NDIM})
        if len(ranks) > 1:
            raise VerifyException(f"{self.name}: operands have different ranks {ranks}")
        dtypes = [t.data_type for t in tensors]
        if any(dtype.is_void for dtype in dtypes):
            dtype = VOID
        elif len(set(dtypes)) > 1:
            raise VerifyException(
                f"{self.name}: operands have different data types {', '.join(map(str, dtypes))}"
            )
        else:
            dtype = dtypes[0]
        ndim = ranks[0] if ranks else UNKNOWN_NDIM
        shapes = [t.dims for t in tensors]
        if any(dims is None for dims in shapes):
            return TensorType(dtype=dtype, ndim=ndim)
        known = True
        for axis, dims in enumerate(zip(*shapes, strict=True)):
            for left, right in combinations(dims, 2):
                if prove_not_equal(left, right):
                    raise VerifyException(
                        f"{self.name}: dimensions {to_text(left)} and {to_text(right)} "
                        f"(axis {axis}) differ"
                    )
                known = known and prove_equal(left, right)
        return TensorType(shapes[0], dtype) if known else TensorType(dtype=dtype, ndim=ndim)


OPERATIONS = [EwiseFmaOp]
