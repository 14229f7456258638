"""Fusion pattern kinds of the operators (TVM's ``OpPatternKind``), for ``relax-fuse-ops``.

TVM's Relax operators register no ``TOpPattern``: its ``FuseOps`` runs after
``LegalizeOps`` and reads the ``op_pattern`` attribute that
``AnnotateTIROpPattern`` derives from each legalized PrimFunc's loads and
stores. This dialect fuses Relax operators directly, so the table below gives
each operator the kind TVM 0.25 derives for its legalization (measured by
legalizing every operator and annotating the result). Where TVM's kind depends
on the shapes, so does ours:

* broadcasting operators (``add``, ``where``, ...) are ``ELEMWISE`` when some
  tensor operand has the result's shape (``C[i, j] = A[i, j] + B[j]``), else
  ``BROADCAST`` (``C[i, j] = A[i, 0] + B[0, j]``);
* ``matmul`` is ``OUT_EWISE_FUSABLE``, ``COMM_REDUCE`` with a 1-d operand;
* an operator whose operand or result shapes are unknown (only a rank) is
  ``OPAQUE``, as TVM does not legalize it.

Operators TVM does not legalize to a PrimFunc (``ewise_fma``, ``cumsum``,
``sort``, ``dropout``, the core operators...) or legalizes to a packed call or
an opaque PrimFunc (``take``, ``gather_*``, ``scatter_*``, ``unique``,
``nll_loss``...) are ``OPAQUE``. ``nn.pixel_shuffle``, whose legalization is
broken in TVM 0.25 (it calls a missing ``topi.nn.pixel_shuffle``), is
``INJECTIVE``, as a reshape and transposition of its input is.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

from xdsl.ir import Operation

from ..prim_expr import PrimExpr
from ..prim_expr_simplify import prove_equal
from ..types import ShapeType, StructInfoType, TensorType, TupleType
from .operator import OperatorOp


class OpPattern(IntEnum):
    """How an operator reads its inputs (TVM's ``OpPatternKind``, same values)."""

    ELEMWISE = 0
    """Each output element reads the input elements at the same index."""
    BROADCAST = 1
    """Each output element reads input elements at indices taken from its own, in order."""
    INJECTIVE = 2
    """Each output element reads input elements at a function of its own index."""
    COMM_REDUCE = 3
    """A commutative reduction."""
    OUT_EWISE_FUSABLE = 4
    """A complex computation (matmul, convolution, ...) that element-wise operations may follow."""
    TUPLE = 7
    """A tuple of values."""
    OPAQUE = 8
    """Anything else: never fused."""


def _broadcast_or_elemwise(op: Operation) -> OpPattern:
    result = op.results[0].type
    if not isinstance(result, TensorType) or result.dims is None:
        return OpPattern.BROADCAST
    for operand in op.operands:
        dims = operand.type.dims if isinstance(operand.type, TensorType) else None
        if dims is not None and _same_dims(dims, result.dims):
            return OpPattern.ELEMWISE
    return OpPattern.BROADCAST


def _same_dims(lhs: tuple[PrimExpr, ...], rhs: tuple[PrimExpr, ...]) -> bool:
    return len(lhs) == len(rhs) and all(prove_equal(a, b) for a, b in zip(lhs, rhs, strict=True))


def _matmul(op: Operation) -> OpPattern:
    vector = any(isinstance(v.type, TensorType) and v.type.rank == 1 for v in op.operands)
    return OpPattern.COMM_REDUCE if vector else OpPattern.OUT_EWISE_FUSABLE


Kind = OpPattern | Callable[[Operation], OpPattern]


def _kinds(kind: Kind, names: str) -> dict[str, Kind]:
    return {f"relax.{name}": kind for name in names.split()}


UNARY = """abs acos acosh asin asinh atan atanh bitwise_not ceil clip cos cosh erf exp floor
isfinite isinf isnan log logical_not negative round rsqrt sigmoid sign sin sinh sqrt square tan
tanh trunc"""
BINARY = """add subtract multiply divide floor_divide mod floor_mod power maximum minimum atan2
log_add_exp equal not_equal less less_equal greater greater_equal logical_and logical_or
logical_xor bitwise_and bitwise_or bitwise_xor left_shift right_shift where"""

PATTERNS: dict[str, Kind] = {
    **_kinds(OpPattern.ELEMWISE, UNARY),
    **_kinds(_broadcast_or_elemwise, BINARY),
    **_kinds(
        OpPattern.ELEMWISE,
        """zeros ones full zeros_like ones_like full_like eye eye_like arange tril triu astype
        nn.relu nn.gelu nn.gelu_tanh nn.selu nn.silu nn.leakyrelu nn.softplus nn.prelu""",
    ),
    **_kinds(OpPattern.BROADCAST, "outer expand_dims squeeze stack meshgrid broadcast_to one_hot"),
    **_kinds(
        OpPattern.INJECTIVE,
        """reshape flatten permute_dims flip concat split tile repeat strided_slice nn.pad
        nn.pixel_shuffle nn.batch_flatten image.resize2d""",
    ),
    **_kinds(OpPattern.COMM_REDUCE, "sum max min prod collapse_sum_like collapse_sum_to"),
    **_kinds(
        OpPattern.OUT_EWISE_FUSABLE,
        """argmax argmin mean std variance einsum nn.softmax nn.log_softmax nn.batch_norm
        nn.layer_norm nn.rms_norm nn.group_norm nn.instance_norm nn.cross_entropy_with_logits
        nn.attention nn.attention_bias nn.conv1d nn.conv2d nn.conv3d nn.conv1d_transpose
        nn.conv2d_transpose nn.conv3d_transpose nn.max_pool1d nn.max_pool2d nn.max_pool3d
        nn.avg_pool1d nn.avg_pool2d nn.avg_pool3d nn.adaptive_avg_pool1d nn.adaptive_avg_pool2d
        nn.adaptive_avg_pool3d""",
    ),
    "relax.matmul": _matmul,
    **_kinds(
        OpPattern.OPAQUE,
        """ewise_fma bucketize cumsum cumprod gather_elements gather_nd scatter_elements
        scatter_nd take dynamic_strided_slice wrap_param sort argsort topk unique nonzero
        nn.dropout nn.nll_loss shape_of size tensor_to_shape shape_to_tensor null_value print
        assert_op""",
    ),
}
"""Each operator's kind, or the function computing it from the operation."""


def operator_pattern(op: OperatorOp) -> OpPattern:
    """The fusion pattern of an operator application (``OPAQUE`` for an unknown
    operator, or when the shapes TVM needs to legalize it are unknown)."""
    kind = PATTERNS.get(op.name, OpPattern.OPAQUE)
    if kind is OpPattern.OPAQUE:
        return kind
    values = (*op.operands, *op.results)
    if not all(_known_shapes(v.type) for v in values):  # pyright: ignore[reportArgumentType]
        return OpPattern.OPAQUE
    return kind if isinstance(kind, OpPattern) else kind(op)


def _known_shapes(sinfo: StructInfoType) -> bool:
    """TVM's ``KnowAllShapeValues``: every tensor and shape has known dimensions."""
    if isinstance(sinfo, TensorType | ShapeType):
        return sinfo.dims is not None
    if isinstance(sinfo, TupleType):
        return all(_known_shapes(field) for field in sinfo.types)
    return True
