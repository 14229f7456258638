"""Element-wise binary operators (TVM's ``tensor/binary.cc``) with NumPy
broadcasting over symbolic shapes.

All 26 share one inference (TVM's ``InferStructInfoBroadcast``): arithmetic,
logical and bitwise operators keep their operands' common data type, the
comparisons return ``bool``. Inference does not restrict data types (TVM does
not either); each operator says which data TVM computes it on (``DATA_KINDS``),
and ``computed_dtype`` rejects the others for the kernels and the lowering alike.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure

from ..dtype import BOOL, DataType
from ..prim_expr import IntImm, PrimExpr
from ..types import UNKNOWN_NDIM, PrimType, StructInfoType, TensorType
from .base import relax_type
from .fusion import FusionKind, broadcast_or_elemwise
from .inference import binary_arith_dtype, broadcast_dims, element_dtype
from .operator import OperatorOp
from .placement import Placement

KIND_NAMES = {"b": "bool", "i": "int", "u": "uint", "f": "float"}
"""The data kinds, by the letter ``DATA_KINDS`` uses."""


def data_kind(dtype: DataType) -> str:
    """A data type's kind: ``b`` bool, ``i`` int, ``u`` uint, ``f`` float (the
    extension formats too: ``bfloat16``, ``float8_e4m3fn``...)."""
    if dtype.is_bool:
        return "b"
    return "f" if dtype.is_float else dtype.code[0]


def tir_common_dtype(lhs: DataType, rhs: DataType) -> DataType:
    """TIR's ``BinaryOpMatchTypes``: a float beats an integer, a wider type a
    narrower one, an integer beats ``bool``, unsigned beats signed of equal width."""
    return max(lhs, rhs, key=lambda d: (d.is_float, not d.is_bool, d.bits, d.code == "uint"))


class BinaryBroadcastOp(OperatorOp):
    """``relax.<op> %x1, %x2``: tensors (or prim values) broadcast together.

    Inference (TVM's ``InferStructInfoBroadcastArith``): operands are tensors
    or prim values, a prim value acting as a tensor of shape ``[1]``; two prim
    values give a prim value. The shape is the NumPy broadcast of the operand
    shapes; when that cannot be decided statically only the rank (the larger
    one) is kept, and provably incompatible dimensions are an error. The data
    type is the operands' common one (``bool`` mixes with any; ``void`` makes
    the result ``void``).
    """

    FUSION: ClassVar[FusionKind] = broadcast_or_elemwise
    PLACEMENT: ClassVar[Placement] = Placement.SAME
    DATA_KINDS: ClassVar[str] = "iuf"
    """The data kinds TVM computes it on (``KIND_NAMES``)."""
    CHECK_EACH: ClassVar[bool] = False
    """Whether each operand must be of ``DATA_KINDS`` (TIR checks them before
    matching their types), rather than only their common data type."""

    x1 = operand_def()
    x2 = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def computed_dtype(cls, lhs: DataType, rhs: DataType) -> DataType:
        """The data type TVM computes on for operands of these data types: their
        common one (``tir_common_dtype``). ``TypeError`` when TVM does not compute
        the operator on them."""
        common = tir_common_dtype(lhs, rhs)
        for dtype in (lhs, rhs) if cls.CHECK_EACH else (common,):
            if data_kind(dtype) not in cls.DATA_KINDS:
                allowed = ", ".join(KIND_NAMES[kind] for kind in cls.DATA_KINDS)
                raise TypeError(
                    f"TVM computes this operator on {allowed} data only, not on {dtype}"
                )
        return common

    def result_dtype(self, lhs: StructInfoType, rhs: StructInfoType) -> DataType:
        """The result's data type (an error if an operand has none)."""
        return binary_arith_dtype(self.name, lhs, rhs)

    def infer_type(self) -> StructInfoType:
        lhs = relax_type(self.name, self.x1)
        rhs = relax_type(self.name, self.x2)
        dtype = self.result_dtype(lhs, rhs)
        if isinstance(lhs, PrimType) and isinstance(rhs, PrimType):
            return PrimType(dtype)
        left, right = _as_dims(lhs), _as_dims(rhs)
        if left is not None and right is not None:
            dims = broadcast_dims(self.name, left, right)
            if dims is not None:
                return TensorType(dims, dtype)
        ranks = [_rank(lhs), _rank(rhs)]
        ndim = UNKNOWN_NDIM if UNKNOWN_NDIM in ranks else max(ranks)
        return TensorType(dtype=dtype, ndim=ndim)


class ComparisonOp(BinaryBroadcastOp):
    """A broadcast comparison: a ``bool`` result.

    Inference (TVM's ``InferStructInfoBroadcastCMP``): the shape as for the
    arithmetic operators; the result is ``bool`` and the operand data types are
    not compared.
    """

    DATA_KINDS: ClassVar[str] = "biuf"

    def result_dtype(self, lhs: StructInfoType, rhs: StructInfoType) -> DataType:
        element_dtype(self.name, lhs, "first")
        element_dtype(self.name, rhs, "second")
        return BOOL


def _as_dims(sinfo: StructInfoType) -> tuple[PrimExpr, ...] | None:
    if isinstance(sinfo, PrimType):
        return (IntImm(1),)
    assert isinstance(sinfo, TensorType)
    return sinfo.dims


def _rank(sinfo: StructInfoType) -> int:
    return 1 if isinstance(sinfo, PrimType) else sinfo.rank  # pyright: ignore


# --- arithmetic -------------------------------------------------------------------


@irdl_op_definition
class AddOp(BinaryBroadcastOp):
    """Element-wise sum ``x1 + x2``.

    Inference: the broadcast shape and the common data type."""

    name = "relax.add"


@irdl_op_definition
class SubtractOp(BinaryBroadcastOp):
    """Element-wise difference ``x1 - x2``.

    Inference: the broadcast shape and the common data type."""

    name = "relax.subtract"


@irdl_op_definition
class MultiplyOp(BinaryBroadcastOp):
    """Element-wise product ``x1 * x2``.

    Inference: the broadcast shape and the common data type."""

    name = "relax.multiply"


@irdl_op_definition
class DivideOp(BinaryBroadcastOp):
    """Element-wise quotient ``x1 / x2``: true division on floats, division
    truncated toward zero on integers (C semantics).

    Inference: the broadcast shape and the common data type."""

    name = "relax.divide"


@irdl_op_definition
class FloorDivideOp(BinaryBroadcastOp):
    """Element-wise quotient rounded toward negative infinity: ``floor(x1 / x2)``
    on floats, floor division on integers.

    Inference: the broadcast shape and the common data type."""

    name = "relax.floor_divide"


@irdl_op_definition
class ModOp(BinaryBroadcastOp):
    """Element-wise remainder of the truncated division (C ``fmod``/``%``):
    the sign of ``x1``.

    Inference: the broadcast shape and the common data type."""

    name = "relax.mod"


@irdl_op_definition
class FloorModOp(BinaryBroadcastOp):
    """Element-wise remainder of the floor division, ``x1 - floor(x1 / x2) * x2``:
    the sign of ``x2``.

    Inference: the broadcast shape and the common data type."""

    name = "relax.floor_mod"


@irdl_op_definition
class PowerOp(BinaryBroadcastOp):
    """Element-wise power ``x1 ** x2`` (computed by TVM on floats only).

    Inference: the broadcast shape and the common data type."""

    name = "relax.power"
    DATA_KINDS: ClassVar[str] = "f"


@irdl_op_definition
class MaximumOp(BinaryBroadcastOp):
    """Element-wise maximum, ``x1 > x2 ? x1 : x2`` (so a NaN in ``x2`` wins
    and a NaN in ``x1`` loses, as in TVM's generated code).

    Inference: the broadcast shape and the common data type."""

    name = "relax.maximum"
    DATA_KINDS: ClassVar[str] = "biuf"


@irdl_op_definition
class MinimumOp(BinaryBroadcastOp):
    """Element-wise minimum, ``x1 < x2 ? x1 : x2`` (so a NaN in ``x2`` wins
    and a NaN in ``x1`` loses, as in TVM's generated code).

    Inference: the broadcast shape and the common data type."""

    name = "relax.minimum"
    DATA_KINDS: ClassVar[str] = "biuf"


@irdl_op_definition
class Atan2Op(BinaryBroadcastOp):
    """Element-wise arc tangent of ``x1 / x2`` in the quadrant of ``(x2, x1)``
    (floats only).

    Inference: the broadcast shape and the common data type."""

    name = "relax.atan2"
    DATA_KINDS: ClassVar[str] = "f"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class LogAddExpOp(BinaryBroadcastOp):
    """Element-wise ``log(exp(x1) + exp(x2))``, computed literally as TVM does
    (it overflows for large inputs; floats only).

    Inference: the broadcast shape and the common data type."""

    name = "relax.log_add_exp"
    DATA_KINDS: ClassVar[str] = "f"
    CHECK_EACH: ClassVar[bool] = True


# --- comparisons ------------------------------------------------------------------


@irdl_op_definition
class EqualOp(ComparisonOp):
    """Element-wise ``x1 == x2``.

    Inference: the broadcast shape, ``bool``."""

    name = "relax.equal"


@irdl_op_definition
class NotEqualOp(ComparisonOp):
    """Element-wise ``x1 != x2``, ordered as in TVM's generated code: false
    when either is NaN.

    Inference: the broadcast shape, ``bool``."""

    name = "relax.not_equal"


@irdl_op_definition
class LessOp(ComparisonOp):
    """Element-wise ``x1 < x2``.

    Inference: the broadcast shape, ``bool``."""

    name = "relax.less"


@irdl_op_definition
class LessEqualOp(ComparisonOp):
    """Element-wise ``x1 <= x2``.

    Inference: the broadcast shape, ``bool``."""

    name = "relax.less_equal"


@irdl_op_definition
class GreaterOp(ComparisonOp):
    """Element-wise ``x1 > x2``.

    Inference: the broadcast shape, ``bool``."""

    name = "relax.greater"


@irdl_op_definition
class GreaterEqualOp(ComparisonOp):
    """Element-wise ``x1 >= x2``.

    Inference: the broadcast shape, ``bool``."""

    name = "relax.greater_equal"


# --- logical and bitwise ----------------------------------------------------------


@irdl_op_definition
class LogicalAndOp(BinaryBroadcastOp):
    """Element-wise ``x1 && x2`` of ``bool`` tensors.

    Inference: the broadcast shape and the common data type (not checked to
    be ``bool``, as in TVM)."""

    name = "relax.logical_and"
    DATA_KINDS: ClassVar[str] = "b"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class LogicalOrOp(BinaryBroadcastOp):
    """Element-wise ``x1 || x2`` of ``bool`` tensors.

    Inference: the broadcast shape and the common data type (not checked to
    be ``bool``, as in TVM)."""

    name = "relax.logical_or"
    DATA_KINDS: ClassVar[str] = "b"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class LogicalXorOp(BinaryBroadcastOp):
    """Element-wise exclusive or of ``bool`` tensors (TVM computes it as ``x1 ^ x2``,
    so it is the bitwise exclusive or on integers).

    Inference: the broadcast shape and the common data type (not checked to
    be ``bool``, as in TVM)."""

    name = "relax.logical_xor"
    DATA_KINDS: ClassVar[str] = "biu"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class BitwiseAndOp(BinaryBroadcastOp):
    """Element-wise ``x1 & x2`` of integer or ``bool`` tensors.

    Inference: the broadcast shape and the common data type (not checked, as
    in TVM)."""

    name = "relax.bitwise_and"
    DATA_KINDS: ClassVar[str] = "biu"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class BitwiseOrOp(BinaryBroadcastOp):
    """Element-wise ``x1 | x2`` of integer or ``bool`` tensors.

    Inference: the broadcast shape and the common data type (not checked, as
    in TVM)."""

    name = "relax.bitwise_or"
    DATA_KINDS: ClassVar[str] = "biu"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class BitwiseXorOp(BinaryBroadcastOp):
    """Element-wise ``x1 ^ x2`` of integer or ``bool`` tensors.

    Inference: the broadcast shape and the common data type (not checked, as
    in TVM)."""

    name = "relax.bitwise_xor"
    DATA_KINDS: ClassVar[str] = "biu"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class LeftShiftOp(BinaryBroadcastOp):
    """Element-wise ``x1 << x2`` of integer tensors.

    Inference: the broadcast shape and the common data type (not checked, as
    in TVM)."""

    name = "relax.left_shift"
    DATA_KINDS: ClassVar[str] = "iu"
    CHECK_EACH: ClassVar[bool] = True


@irdl_op_definition
class RightShiftOp(BinaryBroadcastOp):
    """Element-wise ``x1 >> x2`` of integer tensors (arithmetic on signed ones).

    Inference: the broadcast shape and the common data type (not checked, as
    in TVM)."""

    name = "relax.right_shift"
    DATA_KINDS: ClassVar[str] = "iu"
    CHECK_EACH: ClassVar[bool] = True


OPERATIONS = [
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivideOp,
    FloorDivideOp,
    ModOp,
    FloorModOp,
    PowerOp,
    MaximumOp,
    MinimumOp,
    Atan2Op,
    LogAddExpOp,
    EqualOp,
    NotEqualOp,
    LessOp,
    LessEqualOp,
    GreaterOp,
    GreaterEqualOp,
    LogicalAndOp,
    LogicalOrOp,
    LogicalXorOp,
    BitwiseAndOp,
    BitwiseOrOp,
    BitwiseXorOp,
    LeftShiftOp,
    RightShiftOp,
]
