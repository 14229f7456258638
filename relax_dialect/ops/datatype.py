"""Data-type conversion (TVM's ``tensor/datatype.cc``): ``astype``, ``wrap_param``."""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..dtype import FLOAT32, DataType
from ..types import StructInfoType, TensorType
from .fusion import FusionKind, OpPattern
from .operator import OperatorOp
from .placement import Placement


class ConvertOp(OperatorOp):
    """``relax.<op> %x {dtype = T}``: the elements of ``x`` converted to ``T``.

    Inference: the input's shape (or rank) with data type ``dtype``. Converting to
    ``void`` is an error (TVM accepts it, but no kernel can produce it).
    """

    PLACEMENT: ClassVar[Placement] = Placement.DATA

    DEFAULT_DTYPE: ClassVar[DataType | None] = None
    """The data type when ``dtype`` is not set (None: it is required)."""

    x = operand_def()
    dtype = prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "input")
        dtype = self.attr("dtype", self.DEFAULT_DTYPE)
        if dtype.is_void:
            raise VerifyException(f"{self.name}: cannot convert to void (an unknown data type)")
        return TensorType(data.dims, dtype, data.rank)


@irdl_op_definition
class AstypeOp(ConvertOp):
    """Element-wise conversion to ``dtype`` (TIR's cast: truncation toward zero from
    float to int, ``x != 0`` to bool): ``relax.astype %x {dtype = i32}``.

    Inference: the input's shape (or rank) with data type ``dtype`` (not ``void``).
    """

    name = "relax.astype"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE


@irdl_op_definition
class WrapParamOp(ConvertOp):
    """A model parameter converted to ``dtype`` (default ``f32``), as ``astype``;
    mixed-precision passes mark parameters with it: ``relax.wrap_param %w``.

    Inference: the input's shape (or rank) with data type ``dtype`` (not ``void``).
    """

    name = "relax.wrap_param"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    DEFAULT_DTYPE: ClassVar[DataType | None] = FLOAT32
    dtype = opt_prop_def(DataTypeAttr)


OPERATIONS = [AstypeOp, WrapParamOp]
