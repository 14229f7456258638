"""Search operators (TVM's ``tensor/search.cc``): ``where``, ``argmax``,
``argmin``, ``bucketize``."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntegerAttr
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..dtype import INT64, DataType
from ..prim_expr import PrimExpr
from ..types import UNKNOWN_NDIM, StructInfoType, TensorType
from .fusion import FusionKind, OpPattern, broadcast_or_elemwise
from .inference import binary_arith_dtype, broadcast_dims, dims_text, reduced_type
from .operator import OperatorOp, attribute_of
from .placement import Placement

INT32 = DataType("int", 32)


@irdl_op_definition
class WhereOp(OperatorOp):
    """Element-wise selection: ``x1`` where ``condition`` is true, else ``x2``.

    Inference (TVM's ``InferStructInfoWhere``): three tensors; the condition
    must be ``bool``, ``x1`` and ``x2`` share a data type (``bool`` mixes with
    any), which the result has. The shape broadcasts ``x1`` with ``x2``, then
    the condition with that; when a broadcast cannot be decided statically only
    the rank (the largest) is kept.
    """

    name = "relax.where"
    FUSION: ClassVar[FusionKind] = broadcast_or_elemwise
    PLACEMENT: ClassVar[Placement] = Placement.COMMON
    condition = operand_def()
    x1 = operand_def()
    x2 = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        condition, x1, x2 = (
            self.tensor_of(value, which)
            for value, which in zip(
                self.operands, ("condition", "first value", "second value"), strict=True
            )
        )
        if not condition.data_type.is_bool:
            raise VerifyException(
                f"{self.name}: the condition has data type {condition.data_type}, expected bool"
            )
        dtype = binary_arith_dtype(self.name, x1, x2)
        ranks = (condition.rank, x1.rank, x2.rank)
        unknown = TensorType(
            dtype=dtype, ndim=UNKNOWN_NDIM if UNKNOWN_NDIM in ranks else max(ranks)
        )
        if condition.dims is None or x1.dims is None or x2.dims is None:
            return unknown
        values = broadcast_dims(self.name, x1.dims, x2.dims)
        if values is None:
            return unknown
        dims = _broadcast_condition(self.name, condition.dims, values)
        return unknown if dims is None else TensorType(dims, dtype)


def _broadcast_condition(
    op_name: str, condition: tuple[PrimExpr, ...], values: tuple[PrimExpr, ...]
) -> tuple[PrimExpr, ...] | None:
    try:
        return broadcast_dims(op_name, condition, values)
    except VerifyException:
        raise VerifyException(
            f"{op_name}: the condition's shape {dims_text(condition)} cannot be broadcast "
            f"with the values' shape {dims_text(values)}"
        ) from None


class IndexReductionOp(OperatorOp):
    """``relax.<op> %x {axis = k, keepdims = b}``: the index of an extreme element.

    Inference (TVM's ``InferStructInfoArgmaxArgmin``): an ``i64`` tensor; the
    input's shape without ``axis`` (a possibly negative index), or with a ``1``
    there under ``keepdims``. Without ``axis`` the whole tensor is reduced: a
    0-d result, or all ones under ``keepdims``.
    """

    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    x = operand_def()
    axis = opt_prop_def(IntegerAttr)
    keepdims = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        x = self.tensor_of(self.x, "input")
        axis: int | None = self.attr("axis")
        axes = None if axis is None else [axis]
        return reduced_type(self.name, x, axes, self.attr("keepdims"), INT64)


@irdl_op_definition
class ArgmaxOp(IndexReductionOp):
    """The index of the largest element along ``axis`` (of the flattened tensor
    without it), as TVM computes it: the first of equal maxima; an element
    after the last NaN; -1 when every element is the data type's lowest value.

    Inference: the reduced shape, ``i64``."""

    name = "relax.argmax"


@irdl_op_definition
class ArgminOp(IndexReductionOp):
    """The index of the smallest element along ``axis`` (of the flattened tensor
    without it), as TVM computes it: the first of equal minima; an element
    after the last NaN; -1 when every element is the data type's highest value.

    Inference: the reduced shape, ``i64``."""

    name = "relax.argmin"


@irdl_op_definition
class BucketizeOp(OperatorOp):
    """The index of the bucket of each element of ``input_tensor`` among the
    sorted 1-d ``boundaries``: the number of boundaries below it (at most it
    with ``right``), like ``torch.bucketize``.

    Inference (TVM's ``InferStructInfoBucketize``): the input's shape (or
    rank), ``i64`` (``i32`` with ``out_int32``); boundaries of known rank
    other than 1 are an error.
    """

    name = "relax.bucketize"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    input_tensor = operand_def()
    boundaries = operand_def()
    out_int32 = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    right = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        values = self.tensor_of(self.input_tensor, "input")
        boundaries = self.tensor_of(self.boundaries, "boundaries")
        if boundaries.rank not in (1, UNKNOWN_NDIM):
            raise VerifyException(
                f"{self.name}: the boundaries have {boundaries.rank} dimensions, expected 1"
            )
        dtype = INT32 if self.attr("out_int32", False) else INT64
        return TensorType(values.dims, dtype, ndim=values.rank)


OPERATIONS = [WhereOp, ArgmaxOp, ArgminOp, BucketizeOp]
