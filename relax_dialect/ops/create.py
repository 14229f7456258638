"""Tensor creation operators (TVM's ``tensor/create.cc``): filled tensors from a
shape or from another tensor, identity matrices, ranges and triangular parts."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
from xdsl.ir import Operation, SSAValue
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
from ..dtype import FLOAT32, INT64, DataType
from ..prim_expr import FloatImm, IntImm, PrimExpr
from ..prim_expr_simplify import simplify
from ..types import (
    UNKNOWN_NDIM,
    ShapeType,
    StructInfoType,
    TensorType,
    struct_info_text,
)
from .base import relax_type
from .fusion import FusionKind, OpPattern
from .inference import known_prim, tensor_operand
from .operator import OperatorOp
from .placement import Placement

# --- helpers -----------------------------------------------------------------------


def _with_dtype(sinfo: TensorType | ShapeType, dtype: DataType | None) -> TensorType:
    """A tensor of ``sinfo``'s shape (or rank) and ``dtype`` (a tensor's own when None)."""
    if dtype is None:
        assert isinstance(sinfo, TensorType)
        return sinfo
    return TensorType(sinfo.dims, dtype, ndim=sinfo.rank)


def _scalar_tensor(op_name: str, value: SSAValue) -> TensorType:
    """The ``fill_value`` operand: a tensor of rank 0."""
    sinfo = tensor_operand(op_name, relax_type(op_name, value), "fill_value")
    if sinfo.rank != 0:
        raise VerifyException(
            f"{op_name}: the fill value has type {struct_info_text(sinfo)}, expected a 0-d tensor"
        )
    return sinfo


# --- filled tensors ------------------------------------------------------------------


class ShapeFillOp(OperatorOp):
    """``relax.<op> %shape {dtype = f32}``: a tensor of the given shape filled
    with ``FILL``."""

    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.NONE

    FILL: ClassVar[int]

    shape = operand_def()
    dtype = prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        dtype: DataType = self.attr("dtype")
        if dtype.is_void:
            raise VerifyException(f"{self.name}: the data type must be known, got void")
        return _with_dtype(self.shape_of(self.shape, "shape"), dtype)


@irdl_op_definition
class ZerosOp(ShapeFillOp):
    """A tensor of zeros of the given shape and data type:
    ``relax.zeros %shape {dtype = f32}``.

    Inference: the shape operand's dimensions (or rank) with ``dtype``, which
    must not be ``void``.
    """

    name = "relax.zeros"
    FILL: ClassVar[int] = 0


@irdl_op_definition
class OnesOp(ShapeFillOp):
    """A tensor of ones of the given shape and data type:
    ``relax.ones %shape {dtype = f32}``.

    Inference: the shape operand's dimensions (or rank) with ``dtype``, which
    must not be ``void``.
    """

    name = "relax.ones"
    FILL: ClassVar[int] = 1


@irdl_op_definition
class FullOp(OperatorOp):
    """A tensor of the given shape filled with a scalar:
    ``relax.full %shape, %fill_value {dtype = i32}``.

    Inference: the shape operand's dimensions (or rank); the data type is
    ``dtype``, else the fill value's, which must be a 0-d tensor.
    """

    name = "relax.full"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    shape = operand_def()
    fill_value = operand_def()
    dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        fill = _scalar_tensor(self.name, self.fill_value)
        dtype = self.data_type_attr("dtype") or fill.data_type
        return _with_dtype(self.shape_of(self.shape, "shape"), dtype)


class LikeFillOp(OperatorOp):
    """``relax.<op> %x {dtype = i8}``: a tensor shaped like ``x`` filled with ``FILL``."""

    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    FILL: ClassVar[int]

    x = operand_def()
    dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "data")
        return _with_dtype(data, self.data_type_attr("dtype"))


@irdl_op_definition
class ZerosLikeOp(LikeFillOp):
    """A tensor of zeros shaped like ``x``: ``relax.zeros_like %x {dtype = i8}``.

    Inference: the type of ``x``, with ``dtype`` as data type when given.
    """

    name = "relax.zeros_like"
    FILL: ClassVar[int] = 0


@irdl_op_definition
class OnesLikeOp(LikeFillOp):
    """A tensor of ones shaped like ``x``: ``relax.ones_like %x {dtype = i8}``.

    Inference: the type of ``x``, with ``dtype`` as data type when given.
    """

    name = "relax.ones_like"
    FILL: ClassVar[int] = 1


@irdl_op_definition
class FullLikeOp(OperatorOp):
    """A tensor shaped like ``x`` filled with a scalar:
    ``relax.full_like %x, %fill_value {dtype = f16}``.

    Inference: the type of ``x``, with ``dtype`` as data type when given; the
    fill value must be a 0-d tensor.
    """

    name = "relax.full_like"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    fill_value = operand_def()
    dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "data")
        _scalar_tensor(self.name, self.fill_value)
        return _with_dtype(data, self.data_type_attr("dtype"))


# --- identity matrices ---------------------------------------------------------------


@irdl_op_definition
class EyeOp(OperatorOp):
    """An ``n x m`` matrix with ones on diagonal ``k`` (above the main one when
    positive) and zeros elsewhere: ``relax.eye %n, %m, %k {dtype = f32}``.

    Inference: shape ``[n, m]`` from the known values of the integer prim values
    ``n`` and ``m``; ``dtype`` defaults to ``f32``.
    """

    name = "relax.eye"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    n = operand_def()
    m = operand_def()
    k = operand_def()
    dtype = opt_prop_def(DataTypeAttr, default_value=DataTypeAttr(FLOAT32))
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        dims = []
        for which, value in (("n", self.n), ("m", self.m)):
            dim, dtype = known_prim(self.name, relax_type(self.name, value), which)
            if not dtype.is_int:
                raise VerifyException(f"{self.name}: {which} has data type {dtype}, expected int")
            dims.append(dim)
        self.prim_of(self.k, "k")
        return TensorType(dims, self.attr("dtype", FLOAT32))


@irdl_op_definition
class EyeLikeOp(OperatorOp):
    """A matrix shaped like the 2-D ``x`` with ones on diagonal ``k`` and zeros
    elsewhere: ``relax.eye_like %x, %k {dtype = f32}``.

    Inference: the type of ``x`` (2-D or of unknown rank), with ``dtype`` as
    data type when given.
    """

    name = "relax.eye_like"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    k = operand_def()
    dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "data")
        if data.rank not in (2, UNKNOWN_NDIM):
            raise VerifyException(
                f"{self.name}: the data must be 2-D, got {struct_info_text(data)}"
            )
        self.prim_of(self.k, "k")
        return _with_dtype(data, self.data_type_attr("dtype"))


# --- ranges --------------------------------------------------------------------------


@irdl_op_definition
class ArangeOp(OperatorOp):
    """Evenly spaced values ``start, start + step, ...`` below ``end`` (above it
    for a negative step): ``relax.arange %start, %end, %step {dtype = f32}``.

    Inference: shape ``[ceil((end - start) / step)]`` from the known values of
    the prim values, simplified (only the rank when a float range has a
    symbolic extent or step); a zero step or negative length is an error.
    ``dtype`` defaults to ``i64`` when the three are signed integers, else ``f32``.
    """

    name = "relax.arange"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    start = operand_def()
    end = operand_def()
    step = operand_def()
    dtype = opt_prop_def(DataTypeAttr)
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        bounds = [
            known_prim(self.name, relax_type(self.name, value), which)
            for which, value in (("start", self.start), ("end", self.end), ("step", self.step))
        ]
        integral = all(dtype.code == "int" for _, dtype in bounds)
        dtype = self.attr("dtype", INT64 if integral else FLOAT32)
        start, end, step = (value for value, _ in bounds)
        if step in (IntImm(0), FloatImm(0.0)):
            raise VerifyException(f"{self.name}: the step is zero")
        length = _range_length(start, end, step, integral)
        if length is None:
            return TensorType(dtype=dtype, ndim=1)
        if isinstance(length, IntImm) and length.value < 0:
            raise VerifyException(
                f"{self.name}: the range from {start} to {end} with step {step} has negative "
                f"length {length}"
            )
        return TensorType((length,), dtype)


def _range_length(
    start: PrimExpr, end: PrimExpr, step: PrimExpr, integral: bool
) -> PrimExpr | None:
    """``ceil((end - start) / step)``: simplified when integral, else computed
    when ``end - start`` and ``step`` are constants, None otherwise."""
    if integral:
        if isinstance(step, IntImm) and step.value < 0:
            return simplify((start - end - step - 1) // -step)
        if isinstance(step, IntImm):
            return simplify((end - start + step - 1) // step)
        return simplify(-((start - end) // step))
    span = simplify(end - start)
    if isinstance(span, IntImm | FloatImm) and isinstance(step, IntImm | FloatImm):
        return IntImm(arange_length(span.value, step.value))
    return None


def arange_length(span: float, step: float) -> int:
    """The length of a float range of extent ``span`` as TVM computes it: in
    single precision."""
    return math.ceil(np.float32(span) / np.float32(step))


# --- triangular parts ------------------------------------------------------------------


class TriangularOp(OperatorOp):
    """``relax.<op> %x, %k``: ``x`` (at least 2-D) with the elements on one side
    of diagonal ``k`` of its last two axes set to zero."""

    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    x = operand_def()
    k = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "data")
        if data.rank != UNKNOWN_NDIM and data.rank < 2:
            raise VerifyException(
                f"{self.name}: the data must have at least 2 dimensions, got "
                f"{struct_info_text(data)}"
            )
        self.prim_of(self.k, "k")
        return data


@irdl_op_definition
class TrilOp(TriangularOp):
    """The lower triangle of (a batch of) matrices: elements with ``col - row > k``
    become zero: ``relax.tril %x, %k``.

    Inference: the type of ``x``, which must have at least 2 dimensions; ``k``
    is a prim value.
    """

    name = "relax.tril"


@irdl_op_definition
class TriuOp(TriangularOp):
    """The upper triangle of (a batch of) matrices: elements with ``col - row < k``
    become zero: ``relax.triu %x, %k``.

    Inference: the type of ``x``, which must have at least 2 dimensions; ``k``
    is a prim value.
    """

    name = "relax.triu"


OPERATIONS: list[type[Operation]] = [
    ZerosOp,
    OnesOp,
    FullOp,
    ZerosLikeOp,
    OnesLikeOp,
    FullLikeOp,
    EyeOp,
    EyeLikeOp,
    ArangeOp,
    TrilOp,
    TriuOp,
]
