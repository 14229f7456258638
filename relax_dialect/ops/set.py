"""Set operators with data-dependent shapes (TVM's ``tensor/set.cc``): ``unique``, ``nonzero``.

Their result lengths depend on the data, so the inferred types know only ranks;
a ``relax.match_cast`` can bind the lengths to symbolic variables.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..dtype import INT64
from ..prim_expr import BoolImm, IntImm
from ..types import UNKNOWN_NDIM, PrimType, StructInfoType, TensorType, TupleType, struct_info_text
from .base import relax_type
from .fusion import FusionKind, OpPattern
from .inference import normalize_axis
from .operator import OperatorOp
from .placement import Placement

UNIQUE_OUTPUTS = ("return_index", "return_inverse", "return_counts")


@irdl_op_definition
class UniqueOp(OperatorOp):
    """The distinct elements of ``x`` (flattened, or the distinct slices along
    ``axis``), ascending if ``sorted`` else in order of first occurrence, and
    optionally the index of each one's first occurrence, the index of each
    element's (slice's) value and each value's count:
    ``relax.unique %x, %sorted, %return_index, %return_inverse, %return_counts[, %axis]``
    (prim values; the ``return_*`` flags must be constants).

    Inference: the values are ``ndim = 1`` (``ndim`` of ``x`` with ``axis``; ``[1]`` for a
    scalar ``x``); each requested extra output is an ``i64`` tensor of ``ndim = 1``
    (``[1]`` for a scalar); a tuple when extras are requested.
    """

    name = "relax.unique"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    sorted = operand_def()
    return_index = operand_def()
    return_inverse = operand_def()
    return_counts = operand_def()
    axis = opt_operand_def()
    result = result_def()
    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "input")
        self.prim_operand("sorted", self.sorted)
        requested = [self.flag(name) for name in UNIQUE_OUTPUTS]
        if self.axis is not None:
            axis = self.prim_operand("axis", self.axis).known_value
            if isinstance(axis, IntImm) and data.rank != UNKNOWN_NDIM:
                normalize_axis(self.name, axis.value, data.rank)
        if data.rank == 0:
            values, extra = TensorType([1], data.data_type), TensorType([1], INT64)
        else:
            ndim = 1 if self.axis is None else data.rank
            values = TensorType(dtype=data.data_type, ndim=ndim)
            extra = TensorType(dtype=INT64, ndim=1)
        outputs = [values] + [extra for flag in requested if flag]
        return outputs[0] if len(outputs) == 1 else TupleType(outputs)

    def prim_operand(self, what: str, value: SSAValue) -> PrimType:
        sinfo = relax_type(self.name, value)
        if not isinstance(sinfo, PrimType) or sinfo.data_type.is_float:
            raise VerifyException(
                f"relax.unique: {what} has type {struct_info_text(sinfo)}, "
                "expected an integer or bool prim value"
            )
        return sinfo

    def flag(self, what: str) -> bool:
        """A ``return_*`` flag, which decides the result type: it must be a constant."""
        value = self.prim_operand(what, getattr(self, what)).known_value
        if not isinstance(value, IntImm | BoolImm):
            raise VerifyException(
                f"relax.unique: {what} must be a constant prim value, "
                f"got {'an unknown value' if value is None else value}"
            )
        return bool(value.value)


@irdl_op_definition
class NonzeroOp(OperatorOp):
    """The indices of the non-zero elements of ``x``, one row per dimension (one
    row for a scalar) and one column per element, as ONNX ``NonZero``:
    ``relax.nonzero %x``.

    Inference: ``i64`` with ``ndim = 2``, the shape unknown.
    """

    name = "relax.nonzero"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        self.tensor_of(self.x, "input")
        return TensorType(dtype=INT64, ndim=2)


OPERATIONS = [UniqueOp, NonzeroOp]
