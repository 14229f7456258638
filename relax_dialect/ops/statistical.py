"""Reductions and scans (TVM's ``tensor/statistical.cc``).

Reductions (``relax.sum``, ``relax.mean``, ...) reduce the axes listed in
``axis`` (every axis when it is unset) and keep them as size-1 dimensions when
``keepdims`` is set; ``relax.median`` also gives, over one axis, where its
values are. Scans (``relax.cumsum``, ``relax.cumprod``) accumulate along one
axis, or over the flattened tensor when ``axis`` is unset.
"""

from __future__ import annotations

from functools import reduce
from operator import mul
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure

from ..attributes import DataTypeAttr
from ..dtype import INT64, VOID
from ..prim_expr import IntImm, PrimExpr
from ..prim_expr_simplify import simplify
from ..types import UNKNOWN_NDIM, StructInfoType, TensorType, TupleType
from .fusion import FusionKind, OpPattern
from .inference import normalize_axes, normalize_axis, reduced_type
from .operator import OperatorOp, attribute_of
from .placement import Placement


class ReductionOp(OperatorOp):
    """``relax.<op> %x {axis = [...], keepdims = false}``: a reduction (TVM's
    ``InferStructInfoStatistical``); the result keeps the data type."""

    FUSION: ClassVar[FusionKind] = OpPattern.COMM_REDUCE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    x = operand_def()
    axis = opt_prop_def(DenseArrayBase)
    keepdims = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        axis = self.int_list("axis")
        return reduced_type(self.name, data, axis, self.attr("keepdims"), data.data_type)


@irdl_op_definition
class SumOp(ReductionOp):
    """Sum of the elements over ``axis`` (every axis when unset), in the data type.

    Inference: the reduced axes are dropped, or kept as 1 with ``keepdims``;
    ``axis = []`` reduces nothing. Axes may be negative and must be distinct
    and in range. Without a known shape only the rank is kept (TVM's fallback:
    a full reduction of an unknown shape is ``[]``, or all ones with
    ``keepdims``); with an unknown rank only a full reduction without
    ``keepdims`` is known (``[]``). The data type is the input's.
    """

    name = "relax.sum"


@irdl_op_definition
class ProdOp(ReductionOp):
    """Product of the elements over ``axis`` (every axis when unset), in the data type.

    Inference: as ``relax.sum``.
    """

    name = "relax.prod"


@irdl_op_definition
class MaxOp(ReductionOp):
    """Maximum over ``axis`` (every axis when unset); NaN propagates.

    Inference: as ``relax.sum``.
    """

    name = "relax.max"


@irdl_op_definition
class MinOp(ReductionOp):
    """Minimum over ``axis`` (every axis when unset); NaN propagates.

    Inference: as ``relax.sum``.
    """

    name = "relax.min"


@irdl_op_definition
class MeanOp(ReductionOp):
    """Arithmetic mean over ``axis`` (every axis when unset): the sum divided by
    the element count, truncated toward zero for integer data (as TVM does).

    Inference: as ``relax.sum``; integer data gives an integer result.
    """

    name = "relax.mean"
    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE


@irdl_op_definition
class VarianceOp(ReductionOp):
    """Population variance (``ddof = 0``) over ``axis`` (every axis when unset):
    the mean of the squared deviations from the mean, in the data type.

    Inference: as ``relax.sum``; integer data gives an integer result.
    """

    name = "relax.variance"
    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE


@irdl_op_definition
class StdOp(ReductionOp):
    """Population standard deviation (``ddof = 0``) over ``axis`` (every axis
    when unset): the square root of ``relax.variance``.

    Inference: as ``relax.sum``; integer data gives an integer result (the
    square root truncated toward zero).
    """

    name = "relax.std"
    FUSION: ClassVar[FusionKind] = OpPattern.OUT_EWISE_FUSABLE


@irdl_op_definition
class MedianOp(ReductionOp):
    """The lower median over ``axis`` (every axis when unset): the element at
    position ``(n - 1) // 2`` of the ``n`` reduced elements sorted (stably,
    NaN last), as PyTorch's ``median``. Over a single axis it also gives the
    position of that element along the axis (``i64``), as a tuple
    ``(values, indices)``.

    Inference (TVM's ``InferStructInfoStatisticalExtension``): the reduced
    shape as ``relax.sum``'s, a tensor over every axis or several, a tuple of
    the values and ``i64`` indices over one. Without a known shape: ``[]``
    when no dimension remains, all ones over every axis with ``keepdims``, else
    a tuple of tensors of the remaining rank (TVM's fallback, even over several
    axes).
    """

    name = "relax.median"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        axes = self.int_list("axis")
        keepdims: bool = self.attr("keepdims")
        dtype = data.data_type
        if axes is not None and data.rank != UNKNOWN_NDIM:
            axes = normalize_axes(self.name, axes, data.rank)
        if keepdims:
            ndim = data.rank
        elif axes is None:
            ndim = 0
        else:
            ndim = UNKNOWN_NDIM if data.rank == UNKNOWN_NDIM else data.rank - len(axes)
        if data.dims is None:
            if axes is None and keepdims and ndim != UNKNOWN_NDIM:
                return TensorType([1] * ndim, dtype)
            if ndim == 0:
                return TensorType([], dtype)
            return _values_and_indices(TensorType(dtype=dtype, ndim=ndim))
        values = reduced_type(self.name, data, axes, keepdims, dtype)
        return values if axes is None or len(axes) > 1 else _values_and_indices(values)


def _values_and_indices(values: TensorType) -> TupleType:
    """A median's values and, in the same shape, their ``i64`` positions."""
    return TupleType([values, TensorType(values.dims, INT64, values.rank)])


class ScanOp(OperatorOp):
    """``relax.<op> %data {axis = 0, dtype = f32, exclusive = false}``: a
    cumulative operation (TVM's ``InferStructInfoScan``)."""

    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    data = operand_def()
    axis = opt_prop_def(IntegerAttr)
    dtype = opt_prop_def(DataTypeAttr)
    exclusive = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    result = result_def()
    traits = traits_def(Pure())

    REDUCTION: ClassVar[type[ReductionOp]]
    """The reduction the scan accumulates (its combiner and identity)."""

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        dtype = self.attr("dtype", VOID)
        if dtype.is_void:
            dtype = data.data_type
        axis: int | None = self.attr("axis")
        if axis is None:
            if data.dims is None:
                return TensorType(dtype=dtype, ndim=1)
            size: PrimExpr = reduce(mul, data.dims, IntImm(1))
            return TensorType([simplify(size)], dtype)
        if data.rank != UNKNOWN_NDIM:
            normalize_axis(self.name, axis, data.rank)
        return TensorType(data.dims, dtype, ndim=data.rank)


@irdl_op_definition
class CumsumOp(ScanOp):
    """Cumulative sum along ``axis`` (of the flattened tensor when unset),
    accumulated in ``dtype`` (default: the data type); ``exclusive`` leaves
    each element out of its own sum (the first one is 0).

    Inference: the data's shape, or ``[prod(shape)]`` without ``axis`` (a 1-D
    tensor of unknown length when the shape is unknown); the data type is
    ``dtype`` when given, else the input's. A known rank checks ``axis``.
    """

    name = "relax.cumsum"
    REDUCTION: ClassVar[type[ReductionOp]] = SumOp


@irdl_op_definition
class CumprodOp(ScanOp):
    """Cumulative product along ``axis`` (of the flattened tensor when unset),
    accumulated in ``dtype`` (default: the data type); ``exclusive`` leaves
    each element out of its own product (the first one is 1).

    Inference: as ``relax.cumsum``.
    """

    name = "relax.cumprod"
    REDUCTION: ClassVar[type[ReductionOp]] = ProdOp


OPERATIONS: list[type[Operation]] = [
    SumOp,
    MeanOp,
    MaxOp,
    MinOp,
    ProdOp,
    StdOp,
    VarianceOp,
    CumsumOp,
    CumprodOp,
    MedianOp,
]
