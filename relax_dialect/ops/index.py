"""Indexing operators (TVM's ``tensor/index.cc``): ``take``, ``strided_slice``,
``dynamic_strided_slice``."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, StringAttr
from xdsl.ir import Operation
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

from ..dtype import INT64
from ..prim_expr import IntImm, PrimExpr, Var, call
from ..prim_expr_simplify import simplify
from ..types import (
    UNKNOWN_NDIM,
    ObjectType,
    PrimType,
    StructInfoType,
    TensorType,
    TupleType,
    struct_info_text,
)
from .base import relax_type
from .fusion import FusionKind, OpPattern
from .inference import check_choice, normalize_axes, normalize_axis, tensor_operand
from .operator import OperatorOp
from .placement import Placement

TAKE_MODES = ("fast", "nan", "wrap", "clip")
"""How ``relax.take`` treats out-of-bounds indices; the first is the default."""


@irdl_op_definition
class TakeOp(OperatorOp):
    """Elements of ``x`` picked by integer ``indices`` along ``axis`` (NumPy
    ``take``): ``relax.take %x, %indices {axis = 1, mode = "clip"}``.

    Without ``axis``, ``x`` must be 1-D. ``mode`` treats out-of-bounds indices:
    ``fast`` assumes there are none, ``nan`` yields NaN (floating-point data
    only), ``wrap`` takes them modulo the axis length, ``clip`` clamps them to
    the axis.

    Inference: ``x.shape[:axis] + indices.shape + x.shape[axis + 1:]`` with the
    data type of ``x``; a prim value index acts as a 0-d tensor; indices must
    be integers (``void`` is assumed to be); an unknown rank or shape keeps
    only what is known.
    """

    name = "relax.take"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    indices = operand_def()
    axis = opt_prop_def(IntegerAttr)
    mode = opt_prop_def(StringAttr, default_value=StringAttr(TAKE_MODES[0]))
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "data")
        indices = self._indices()
        mode = self.attr("mode")
        check_choice(self.name, "mode", mode, TAKE_MODES)
        dtype = indices.data_type
        if not dtype.is_void and not dtype.is_int:
            raise VerifyException(f"{self.name}: indices have data type {dtype}, expected integers")
        if mode == "nan" and not (data.data_type.is_void or data.data_type.is_float):
            raise VerifyException(
                f"{self.name}: mode nan needs floating-point data, got {data.data_type} "
                "(TVM cannot build it)"
            )
        axis = self.attr("axis")
        if axis is None and data.rank != 1:
            raise VerifyException(
                f"{self.name}: without an axis the data must be 1-D, got {struct_info_text(data)}"
            )
        if UNKNOWN_NDIM in (data.rank, indices.rank):
            return TensorType(dtype=data.data_type, ndim=UNKNOWN_NDIM)
        axis = 0 if axis is None else normalize_axis(self.name, axis, data.rank)
        if data.dims is None or indices.dims is None:
            return TensorType(dtype=data.data_type, ndim=data.rank + indices.rank - 1)
        dims = (*data.dims[:axis], *indices.dims, *data.dims[axis + 1 :])
        return TensorType(dims, data.data_type)

    def _indices(self) -> TensorType:
        """The type of the indices, a prim value being a 0-d tensor."""
        sinfo = relax_type(self.name, self.indices)
        if isinstance(sinfo, PrimType):
            return TensorType((), sinfo.data_type)
        if not isinstance(sinfo, TensorType):
            raise VerifyException(
                f"{self.name}: the indices operand has type {struct_info_text(sinfo)}, "
                "expected a tensor or prim value"
            )
        return sinfo


@irdl_op_definition
class StridedSliceOp(OperatorOp):
    """Slice ``x[begin:end:stride]`` along each of ``axes`` (Python slicing):
    ``relax.strided_slice %x, %axes, %begin, %end[, %strides] {assume_inbound = true}``.

    ``axes``, ``begin``, ``end`` and ``strides`` (all ones when omitted) are
    tuples of ``i64`` prim values of one length. Negative indices count from
    the end and out-of-range ones are clamped, unless ``assume_inbound``
    promises ``0 <= begin, end <= extent``.

    Inference: each sliced extent becomes ``ceil((end - begin) / stride)`` after
    that clamping (symbolic values allowed, simplified); when the shape of
    ``x`` or a value of the tuples is unknown only the rank is kept; a
    constant zero stride or negative extent is an error.
    """

    name = "relax.strided_slice"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    axes = operand_def()
    begin = operand_def()
    end = operand_def()
    strides = opt_operand_def()
    assume_inbound = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    result = result_def()
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "data")
        tuples = self._index_tuples()
        rank_only = TensorType(dtype=data.data_type, ndim=data.rank)
        axes = _known_values(tuples["axes"])
        if data.rank == UNKNOWN_NDIM or axes is None:
            return rank_only
        if not all(isinstance(axis, IntImm) for axis in axes):
            return rank_only
        normalized = normalize_axes(self.name, [axis.value for axis in axes], data.rank)  # pyright: ignore
        begin, end = _known_values(tuples["begin"]), _known_values(tuples["end"])
        ones = (IntImm(1),) * len(axes)
        strides = _known_values(tuples["strides"]) if "strides" in tuples else ones
        if data.dims is None or begin is None or end is None or strides is None:
            return rank_only
        dims = list(data.dims)
        inbound = self.attr("assume_inbound")
        for axis, first, last, stride in zip(normalized, begin, end, strides, strict=True):
            dims[axis] = self._extent(axis, first, last, stride, dims[axis], inbound)
        return TensorType(dims, data.data_type)

    def _index_tuples(self) -> dict[str, StructInfoType]:
        """The types of the operands after ``x`` by name: objects, or tuples of
        ``i64`` prim values of one length."""
        names = ("axes", "begin", "end", "strides")
        tuples: dict[str, StructInfoType] = {}
        for which, value in zip(names, self.operands[1:], strict=False):
            sinfo = relax_type(self.name, value)
            if not isinstance(sinfo, ObjectType | TupleType) or not all(
                isinstance(f, PrimType) and f.data_type == INT64 for f in _fields(sinfo)
            ):
                raise VerifyException(
                    f"{self.name}: the {which} operand has type {struct_info_text(sinfo)}, "
                    "expected a tuple of i64 prim values"
                )
            tuples[which] = sinfo
        lengths = {
            which: len(_fields(t)) for which, t in tuples.items() if isinstance(t, TupleType)
        }
        if len(set(lengths.values())) > 1:
            counts = ", ".join(f"{which} has {count}" for which, count in lengths.items())
            raise VerifyException(
                f"{self.name}: axes, begin, end and strides must have one length; {counts}"
            )
        return tuples

    def _extent(
        self,
        axis: int,
        begin: PrimExpr,
        end: PrimExpr,
        stride: PrimExpr,
        extent: PrimExpr,
        inbound: bool,
    ) -> PrimExpr:
        if stride == IntImm(0):
            raise VerifyException(f"{self.name}: the stride of axis {axis} is zero")
        length = _slice_length(begin, end, stride, extent, inbound)
        if isinstance(length, IntImm) and length.value < 0:
            raise VerifyException(
                f"{self.name}: the slice of axis {axis} from {begin} to {end} with stride "
                f"{stride} has negative length {length}"
            )
        return length


def _fields(sinfo: StructInfoType) -> tuple[StructInfoType, ...]:
    return sinfo.types if isinstance(sinfo, TupleType) else ()


def _known_values(sinfo: StructInfoType) -> tuple[PrimExpr, ...] | None:
    """The values of a tuple of prim values, None unless all are known."""
    if not isinstance(sinfo, TupleType):
        return None
    values = [field.known_value for field in sinfo.types]  # pyright: ignore[reportAttributeAccessIssue]
    return None if any(value is None for value in values) else tuple(values)


def _slice_length(
    begin: PrimExpr, end: PrimExpr, stride: PrimExpr, extent: PrimExpr, inbound: bool
) -> PrimExpr:
    """``ceil((end - begin) / stride)``, simplified, after clamping ``begin`` and
    ``end`` to the axis like Python slicing (unless ``inbound`` promises they are
    in ``[0, extent]``). It is negative when the slice runs backwards."""
    if not inbound:
        begin, end = _clamp(begin, extent, stride), _clamp(end, extent, stride)
    backward = call("lt", stride, 0)
    length = call(
        "select", backward, _ceil_div(begin - end, -stride), _ceil_div(end - begin, stride)
    )
    return simplify(length)


def _clamp(index: PrimExpr, extent: PrimExpr, stride: PrimExpr) -> PrimExpr:
    """A slice bound as Python resolves it: negative counts from the end, then
    clamped to ``[0, extent]`` (``[-1, extent - 1]`` for a negative stride)."""
    forward = isinstance(stride, IntImm) and stride.value > 0
    if forward and (index == IntImm(0) or (isinstance(index, Var) and index == extent)):
        return index  # in range already: extents are never negative
    backward = call("lt", stride, 0)
    low = call("select", backward, -1, 0)
    high = call("select", backward, extent - 1, extent)
    if not (isinstance(index, IntImm) and index.value >= 0):
        index = call("select", call("lt", index, 0), index + extent, index)
    return call("min", call("max", index, low), high)


def _ceil_div(dividend: PrimExpr, divisor: PrimExpr) -> PrimExpr:
    """Ceiling division by a positive divisor."""
    return (dividend + divisor - 1) // divisor


@irdl_op_definition
class DynamicStridedSliceOp(OperatorOp):
    """Slice ``x[begin[i]:end[i]:strides[i]]`` along every axis ``i``, with the
    bounds given at run time as 1-D ``i64`` tensors:
    ``relax.dynamic_strided_slice %x, %begin, %end, %strides``.

    Inference: a tensor of the rank and data type of ``x`` whose shape depends
    on the values; ``begin``, ``end`` and ``strides`` must be 1-D tensors with
    one static element per axis of ``x`` (unless its rank is unknown).
    """

    name = "relax.dynamic_strided_slice"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    begin = operand_def()
    end = operand_def()
    strides = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "data")
        if data.rank != UNKNOWN_NDIM:
            for which, value in zip(("begin", "end", "strides"), self.operands[1:], strict=True):
                self._check_bounds(which, relax_type(self.name, value), data.rank)
        return TensorType(dtype=data.data_type, ndim=data.rank)

    def _check_bounds(self, which: str, sinfo: StructInfoType, rank: int) -> None:
        bounds = tensor_operand(self.name, sinfo, which)
        dims = bounds.dims
        if bounds.rank != 1 or dims is None or not isinstance(dims[0], IntImm):
            raise VerifyException(
                f"{self.name}: {which} has type {struct_info_text(bounds)}, expected a 1-D "
                "tensor of static length"
            )
        if dims[0].value != rank:
            raise VerifyException(
                f"{self.name}: {which} has {dims[0]} elements for a tensor of {rank} dimensions"
            )
        dtype = bounds.data_type
        if not dtype.is_void and dtype != INT64:
            raise VerifyException(f"{self.name}: {which} has data type {dtype}, expected i64")


OPERATIONS: list[type[Operation]] = [TakeOp, StridedSliceOp, DynamicStridedSliceOp]
