"""Memory views (TVM's ``memory/view.cc``): ``memory.view``, the bytes of a tensor
read as another shape and data type."""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..dtype import DataType
from ..prim_expr import IntImm, PrimExpr, as_expr
from ..prim_expr_simplify import simplify
from ..types import StructInfoType, TensorType
from .fusion import FusionKind, OpPattern
from .inference import dims_text
from .manipulate import product
from .operator import OperatorOp
from .placement import Placement


def storage_bytes(dtype: DataType) -> int:
    """The bytes an element of ``dtype`` takes in memory (a ``bool`` takes one)."""
    return (dtype.bits * dtype.lanes + 7) // 8


def _provably_larger(lhs: PrimExpr, rhs: PrimExpr) -> bool:
    difference = simplify(lhs - rhs)
    return isinstance(difference, IntImm) and difference.value > 0


@irdl_op_definition
class ViewOp(OperatorOp):
    """The bytes of ``x`` read as a tensor of ``shape`` (default: the shape of
    ``x``) and data type ``dtype`` (default: that of ``x``), from its first
    byte: ``relax.memory.view %x {dtype = i32}``, ``relax.memory.view %x,
    %shape``. It reads no byte past the end of ``x``. (TVM's
    ``relative_byte_offset`` is not supported: a view starts at the first byte.)

    Inference: ``shape``'s dimensions (its rank when they are unknown; the
    shape or rank of ``x`` without one) with data type ``dtype``; a view
    provably larger than ``x`` is an error, as is a wider ``dtype`` without a
    ``shape`` (TVM's checks).
    """

    name = "relax.memory.view"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    shape = opt_operand_def()
    dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        target = self.shape_of(self.shape, "shape") if self.shape is not None else None
        given = self.data_type_attr("dtype")
        dtype = given or data.data_type
        if target is None:
            dims, rank = data.dims, data.rank
        else:
            dims, rank = target.dims, target.rank
        known = not data.data_type.is_void and not dtype.is_void
        if known and data.dims is not None and dims is not None:
            before = product(data.dims) * as_expr(storage_bytes(data.data_type))
            after = product(dims) * as_expr(storage_bytes(dtype))
            if _provably_larger(after, before):
                raise VerifyException(
                    f"{self.name}: a view of {dims_text(dims)} {dtype} reads past the end of "
                    f"the {dims_text(data.dims)} {data.data_type} tensor"
                )
        elif known and target is None and storage_bytes(dtype) > storage_bytes(data.data_type):
            raise VerifyException(
                f"{self.name}: {dtype} elements are wider than {data.data_type} ones: "
                "a view of the same shape reads past the end (give a shape)"
            )
        elif (
            given is None
            and data.dims is not None
            and dims is not None
            and _provably_larger(product(dims), product(data.dims))
        ):
            raise VerifyException(
                f"{self.name}: a view of {dims_text(dims)} has more elements than "
                f"{dims_text(data.dims)}"
            )
        if dims is not None:
            return TensorType(list(dims), dtype)
        return TensorType(dtype=dtype, ndim=rank)


OPERATIONS = [ViewOp]
