"""Fusion pattern kinds of the operators (TVM's ``OpPatternKind``), for ``relax-fuse-ops``.

TVM's Relax operators register no ``TOpPattern``: its ``FuseOps`` runs after
``LegalizeOps`` and reads the ``op_pattern`` attribute that
``AnnotateTIROpPattern`` derives from each legalized PrimFunc's loads and
stores. This dialect fuses Relax operators directly, so each operator class (or
its family's base) declares, as ``FUSION``, the kind TVM 0.25 derives for its
legalization (measured by legalizing every operator and annotating the
result); a test checks that every operator declares one. Where TVM's kind
depends on the shapes, so does ours:

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
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from ..prim_expr import PrimExpr
from ..prim_expr_simplify import prove_equal
from ..types import ShapeType, StructInfoType, TensorType, TupleType

if TYPE_CHECKING:
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


def broadcast_or_elemwise(op: Operation) -> OpPattern:
    """``ELEMWISE`` when some tensor operand has the result's shape, else ``BROADCAST``."""
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


def matmul_pattern(op: Operation) -> OpPattern:
    """``COMM_REDUCE`` with a 1-d operand, else ``OUT_EWISE_FUSABLE``."""
    vector = any(isinstance(v.type, TensorType) and v.type.rank == 1 for v in op.operands)
    return OpPattern.COMM_REDUCE if vector else OpPattern.OUT_EWISE_FUSABLE


FusionKind = OpPattern | Callable[["OperatorOp"], OpPattern]
"""An operator's fusion kind: a fixed one, or a function of the operation."""


def operator_pattern(op: OperatorOp) -> OpPattern:
    """The fusion pattern of an operator application: its class's ``FUSION``
    (``OPAQUE`` when the shapes TVM needs to legalize it are unknown)."""
    kind = type(op).FUSION
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
