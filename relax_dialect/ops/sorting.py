"""Sorting operators (TVM's ``tensor/sorting.cc``): ``sort``, ``argsort``, ``topk``.

TVM sorts stably in both directions: equal elements keep their input order
(descending too), and ``topk`` breaks ties by the lower index.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, StringAttr
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure

from ..attributes import DataTypeAttr
from ..dtype import DataType
from ..prim_expr import IntImm
from ..types import UNKNOWN_NDIM, StructInfoType, TensorType, TupleType
from .fusion import FusionKind, OpPattern
from .inference import check_choice, normalize_axis
from .operator import OperatorOp, attribute_of
from .placement import Placement

INDEX_DTYPE = DataType("int", 32)
"""The default data type of indices (TVM's Python API: ``int32``)."""
TOPK_RESULTS = ("both", "values", "indices")


class SortingOp(OperatorOp):
    """An operator ordering the elements of ``data`` along ``axis`` (default -1)."""

    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    data = operand_def()
    axis = opt_prop_def(IntegerAttr, default_value=attribute_of(-1))
    result = result_def()
    traits = traits_def(Pure())

    def data_tensor(self) -> TensorType:
        """The data operand's type, with ``axis`` checked when its rank is known
        (TVM checks it only in ``topk`` with a known shape, else fails at run time)."""
        data = self.tensor_of(self.data, "data")
        if data.rank != UNKNOWN_NDIM:
            self.sort_axis(data.rank)
        return data

    def sort_axis(self, ndim: int) -> int:
        return normalize_axis(self.name, self.attr("axis"), ndim)

    def index_dtype(self, data: TensorType) -> DataType:
        """``dtype`` (default ``i32``); ``void`` means the data's type, as in TVM."""
        dtype = self.attr("dtype")
        return data.data_type if dtype.is_void else dtype


@irdl_op_definition
class SortOp(SortingOp):
    """The elements of ``data`` sorted along ``axis``, ascending unless
    ``descending``: ``relax.sort %x {axis = 0, descending = true}``.

    Inference: the data's type.
    """

    name = "relax.sort"
    descending = opt_prop_def(BoolAttr, default_value=attribute_of(False))

    def infer_type(self) -> StructInfoType:
        return self.data_tensor()


@irdl_op_definition
class ArgsortOp(SortingOp):
    """The indices that sort ``data`` along ``axis`` (stably), ascending unless
    ``descending``: ``relax.argsort %x {dtype = i64}``.

    Inference: the data's shape (or rank) with data type ``dtype`` (default ``i32``;
    ``void``: the data's).
    """

    name = "relax.argsort"
    descending = opt_prop_def(BoolAttr, default_value=attribute_of(False))
    dtype = opt_prop_def(DataTypeAttr, default_value=attribute_of(INDEX_DTYPE))

    def infer_type(self) -> StructInfoType:
        data = self.data_tensor()
        return TensorType(data.dims, self.index_dtype(data), data.rank)


@irdl_op_definition
class TopkOp(SortingOp):
    """The ``k`` (default 1; all when ``k < 1``) largest elements along ``axis``, or
    smallest unless ``largest``, in sorted order, and their indices:
    ``relax.topk %x {k = 2, ret_type = "values"}``.

    Inference: ``ret_type`` ``"both"`` (default) gives a tuple of values and indices
    (data type ``dtype``, default ``i32``; ``void``: the data's), ``"values"`` or
    ``"indices"`` one tensor; the axis length becomes ``k`` unless it is a constant
    not above ``k``.
    """

    name = "relax.topk"
    k = opt_prop_def(IntegerAttr, default_value=attribute_of(1))
    ret_type = opt_prop_def(StringAttr, default_value=attribute_of("both"))
    largest = opt_prop_def(BoolAttr, default_value=attribute_of(True))
    dtype = opt_prop_def(DataTypeAttr, default_value=attribute_of(INDEX_DTYPE))

    def infer_type(self) -> StructInfoType:
        ret_type = self.attr("ret_type")
        check_choice(self.name, "ret_type", ret_type, TOPK_RESULTS)
        data = self.data_tensor()
        dims = data.dims
        if dims is not None:
            dims = list(dims)
            axis, k = self.sort_axis(len(dims)), self.attr("k")
            length = dims[axis]
            if k > 0 and not (isinstance(length, IntImm) and length.value <= k):
                dims[axis] = IntImm(k)
        values = TensorType(dims, data.data_type, data.rank)
        indices = TensorType(dims, self.index_dtype(data), data.rank)
        return {"both": TupleType([values, indices]), "values": values, "indices": indices}[
            ret_type
        ]


OPERATIONS = [SortOp, ArgsortOp, TopkOp]
