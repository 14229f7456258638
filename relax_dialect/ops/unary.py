"""Element-wise unary operators (TVM's ``src/relax/op/tensor/unary.cc``).

Every operator but ``relax.clip`` takes one tensor and keeps its shape. The
arithmetic ones keep its data type too (some require a float one); the check
operators (``isfinite``, ``isinf``, ``isnan``) return ``bool``. ``relax.clip``
also takes its bounds, as prim values.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure

from ..dtype import BOOL, DataType
from ..types import StructInfoType, TensorType
from .base import relax_type
from .fusion import FusionKind, OpPattern
from .inference import require_float
from .operator import OperatorOp
from .placement import Placement


class UnaryOp(OperatorOp):
    """``relax.<op> %x``: a function applied to each element of a tensor.

    Inference (TVM's ``InferStructInfoUnary``): the input's shape (or rank);
    the data type is the input's, or ``RESULT_DTYPE`` when set. With
    ``REQUIRES_FLOAT``, an input of known non-float data type is an error.
    """

    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA

    REQUIRES_FLOAT: ClassVar[bool] = False
    RESULT_DTYPE: ClassVar[DataType | None] = None

    x = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        x = self.tensor_of(self.x, "input")
        if self.REQUIRES_FLOAT:
            require_float(self.name, x, "input")
        return TensorType(x.dims, self.RESULT_DTYPE or x.data_type, ndim=x.rank)


class FloatUnaryOp(UnaryOp):
    """A unary operator defined on float tensors only."""

    REQUIRES_FLOAT: ClassVar[bool] = True


class UnaryCheckOp(UnaryOp):
    """A unary predicate: a ``bool`` tensor of the input's shape."""

    RESULT_DTYPE: ClassVar[DataType | None] = BOOL


# --- arithmetic on any data type -------------------------------------------------


@irdl_op_definition
class AbsOp(UnaryOp):
    """Element-wise absolute value.

    Inference: the input's type."""

    name = "relax.abs"


@irdl_op_definition
class BitwiseNotOp(UnaryOp):
    """Element-wise bitwise complement ``~x`` (integers and ``bool``).

    Inference: the input's type (the data type is not checked, as in TVM)."""

    name = "relax.bitwise_not"


@irdl_op_definition
class CeilOp(UnaryOp):
    """Element-wise ceiling (the identity on integers).

    Inference: the input's type."""

    name = "relax.ceil"


@irdl_op_definition
class FloorOp(UnaryOp):
    """Element-wise floor (the identity on integers).

    Inference: the input's type."""

    name = "relax.floor"


@irdl_op_definition
class LogicalNotOp(UnaryOp):
    """Element-wise logical negation of a ``bool`` tensor.

    Inference: the input's type (the data type is not checked, as in TVM)."""

    name = "relax.logical_not"


@irdl_op_definition
class NegativeOp(UnaryOp):
    """Element-wise negation ``-x``.

    Inference: the input's type."""

    name = "relax.negative"


@irdl_op_definition
class RoundOp(UnaryOp):
    """Element-wise rounding to the nearest integer, ties to even (the
    identity on integers).

    Inference: the input's type."""

    name = "relax.round"


@irdl_op_definition
class SignOp(UnaryOp):
    """Element-wise sign: -1, 0 or 1 in the input's data type (0 for NaN).

    Inference: the input's type."""

    name = "relax.sign"


@irdl_op_definition
class SquareOp(UnaryOp):
    """Element-wise square ``x * x``.

    Inference: the input's type."""

    name = "relax.square"


@irdl_op_definition
class TruncOp(UnaryOp):
    """Element-wise rounding towards zero (the identity on integers).

    Inference: the input's type."""

    name = "relax.trunc"


# --- arithmetic on float data types ------------------------------------------------


@irdl_op_definition
class AcosOp(FloatUnaryOp):
    """Element-wise arc cosine.

    Inference: the input's type; the data type must be float."""

    name = "relax.acos"


@irdl_op_definition
class AcoshOp(FloatUnaryOp):
    """Element-wise inverse hyperbolic cosine.

    Inference: the input's type; the data type must be float."""

    name = "relax.acosh"


@irdl_op_definition
class AsinOp(FloatUnaryOp):
    """Element-wise arc sine.

    Inference: the input's type; the data type must be float."""

    name = "relax.asin"


@irdl_op_definition
class AsinhOp(FloatUnaryOp):
    """Element-wise inverse hyperbolic sine.

    Inference: the input's type; the data type must be float."""

    name = "relax.asinh"


@irdl_op_definition
class AtanOp(FloatUnaryOp):
    """Element-wise arc tangent.

    Inference: the input's type; the data type must be float."""

    name = "relax.atan"


@irdl_op_definition
class AtanhOp(FloatUnaryOp):
    """Element-wise inverse hyperbolic tangent.

    Inference: the input's type; the data type must be float."""

    name = "relax.atanh"


@irdl_op_definition
class CosOp(FloatUnaryOp):
    """Element-wise cosine.

    Inference: the input's type; the data type must be float."""

    name = "relax.cos"


@irdl_op_definition
class CoshOp(FloatUnaryOp):
    """Element-wise hyperbolic cosine.

    Inference: the input's type; the data type must be float."""

    name = "relax.cosh"


@irdl_op_definition
class ErfOp(FloatUnaryOp):
    """Element-wise Gauss error function (``f16`` computed in ``f32``).

    Inference: the input's type; the data type must be float."""

    name = "relax.erf"


@irdl_op_definition
class ExpOp(FloatUnaryOp):
    """Element-wise natural exponential.

    Inference: the input's type; the data type must be float."""

    name = "relax.exp"


@irdl_op_definition
class LogOp(FloatUnaryOp):
    """Element-wise natural logarithm.

    Inference: the input's type; the data type must be float."""

    name = "relax.log"


@irdl_op_definition
class RsqrtOp(FloatUnaryOp):
    """Element-wise reciprocal square root ``1 / sqrt(x)``.

    Inference: the input's type; the data type must be float."""

    name = "relax.rsqrt"


@irdl_op_definition
class SigmoidOp(FloatUnaryOp):
    """Element-wise logistic sigmoid ``1 / (1 + exp(-x))``.

    Inference: the input's type; the data type must be float."""

    name = "relax.sigmoid"


@irdl_op_definition
class SinOp(FloatUnaryOp):
    """Element-wise sine.

    Inference: the input's type; the data type must be float."""

    name = "relax.sin"


@irdl_op_definition
class SinhOp(FloatUnaryOp):
    """Element-wise hyperbolic sine.

    Inference: the input's type; the data type must be float."""

    name = "relax.sinh"


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    """Element-wise square root.

    Inference: the input's type; the data type must be float."""

    name = "relax.sqrt"


@irdl_op_definition
class TanOp(FloatUnaryOp):
    """Element-wise tangent.

    Inference: the input's type; the data type must be float."""

    name = "relax.tan"


@irdl_op_definition
class TanhOp(FloatUnaryOp):
    """Element-wise hyperbolic tangent.

    Inference: the input's type; the data type must be float."""

    name = "relax.tanh"


# --- checks --------------------------------------------------------------------------


@irdl_op_definition
class IsFiniteOp(UnaryCheckOp):
    """Element-wise test for finite values (true for every integer).

    Inference: a ``bool`` tensor of the input's shape."""

    name = "relax.isfinite"


@irdl_op_definition
class IsInfOp(UnaryCheckOp):
    """Element-wise test for infinite values.

    Inference: a ``bool`` tensor of the input's shape."""

    name = "relax.isinf"


@irdl_op_definition
class IsNanOp(UnaryCheckOp):
    """Element-wise test for NaN.

    Inference: a ``bool`` tensor of the input's shape."""

    name = "relax.isnan"


# --- clip --------------------------------------------------------------------------


@irdl_op_definition
class ClipOp(OperatorOp):
    """Limit each element to ``[min, max]``: ``max(min(x, max), min)`` with the
    bounds cast to the input's data type (``min`` wins when ``min > max``; NaN
    gives ``max``): ``relax.clip %x, %min, %max``.

    Inference: the type of ``x``, unchanged and unchecked, as in TVM; ``min``
    and ``max`` must be prim values."""

    name = "relax.clip"
    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    x = operand_def()
    min = operand_def()
    max = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        self.prim_of(self.min, "min")
        self.prim_of(self.max, "max")
        return relax_type(self.name, self.x)


OPERATIONS: list[type[Operation]] = [
    AbsOp,
    AcosOp,
    AcoshOp,
    AsinOp,
    AsinhOp,
    AtanOp,
    AtanhOp,
    BitwiseNotOp,
    CeilOp,
    ClipOp,
    CosOp,
    CoshOp,
    ErfOp,
    ExpOp,
    FloorOp,
    IsFiniteOp,
    IsInfOp,
    IsNanOp,
    LogOp,
    LogicalNotOp,
    NegativeOp,
    RoundOp,
    RsqrtOp,
    SigmoidOp,
    SignOp,
    SinOp,
    SinhOp,
    SqrtOp,
    SquareOp,
    TanOp,
    TanhOp,
    TruncOp,
]
