"""Shape computations on known shapes, and chains of shape manipulations
(``relax-simplify-shapes``, ``canonicalize``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.utils.exceptions import VerifyException

from ..attributes import DenseAttr, ShapeAttr
from ..ops.core import ShapeOfOp, SizeOp, TensorToShapeOp
from ..ops.inference import normalize_axes
from ..ops.manipulate import ExpandDimsOp, PermuteDimsOp, ReshapeOp, SqueezeOp
from ..ops.values import ConstantOp, ShapeOp
from ..prim_expr import IntImm
from ..prim_expr_simplify import prove_equal
from ..rewriting.patterns import BindingPattern, Replacement
from ..types import UNKNOWN_NDIM, TensorType


class ShapeOfKnownDims(BindingPattern):
    """``shape_of`` of a tensor whose dimensions are known is the shape literal."""

    def replacement(self, op: ShapeOfOp) -> Replacement | None:
        tensor = op.tensor.type
        if not isinstance(tensor, TensorType) or tensor.dims is None:
            return None
        shape = ShapeOp(ShapeAttr(tensor.dims))
        return Replacement(shape.result, [shape])


class TensorToShapeOfConstant(BindingPattern):
    """``tensor_to_shape`` of a 1-d integer constant is the shape literal."""

    def replacement(self, op: TensorToShapeOp) -> Replacement | None:
        constant = op.tensor.owner
        if not isinstance(constant, ConstantOp):
            return None
        array = constant.value.array
        if array.ndim != 1 or array.dtype.kind not in "iu":
            return None
        shape = ShapeOp(ShapeAttr(tuple(IntImm(int(v)) for v in array)))
        return Replacement(shape.result, [shape])


class SizeOfStaticTensor(BindingPattern):
    """``size`` of a tensor of static shape is the constant element count."""

    def replacement(self, op: SizeOp) -> Replacement | None:
        tensor = op.tensor.type
        if not isinstance(tensor, TensorType) or tensor.dims is None:
            return None
        if not all(isinstance(d, IntImm) for d in tensor.dims):
            return None
        count = int(np.prod([d.value for d in tensor.dims], dtype=np.int64))  # pyright: ignore
        constant = ConstantOp(DenseAttr.from_array(np.array(count, dtype=np.int64)))
        return Replacement(constant.result, [constant])


class ReshapeChain(BindingPattern):
    """A chain of reshapes is one reshape; a reshape to its operand's shape is the operand.

    A reshape whose shape copies a dimension with ``0`` depends on the one
    before, so it does not collapse."""

    def replacement(self, op: ReshapeOp) -> Replacement | None:
        source = op.x
        inner = source.owner
        zeros, _ = op.placeholders()
        if isinstance(inner, ReshapeOp) and not zeros:
            source = inner.x
        if same_shape(source.type, op.results[0].type):
            return Replacement(source)
        if source is op.x:
            return None
        try:
            collapsed = ReshapeOp.build([source, op.shape])
        except VerifyException:
            return None
        return Replacement(collapsed.results[0], [collapsed])


class PermuteDimsChain(BindingPattern):
    """Two ``permute_dims`` are one; a permutation that moves no axis is its operand.

    ``permute_dims(permute_dims(x, a), b)`` is ``permute_dims(x, a[b])``."""

    def replacement(self, op: PermuteDimsOp) -> Replacement | None:
        source, inner = op.x, op.x.owner
        if not isinstance(inner, PermuteDimsOp) and op.results[0].type != source.type:
            return None  # neither a chain nor (changing the type) the identity
        order = _order(op)
        if order is None:
            return None
        if isinstance(inner, PermuteDimsOp) and (first := _order(inner)) is not None:
            source, order = inner.x, [first[axis] for axis in order]
        if order == sorted(order):
            return Replacement(source)
        if source is op.x:
            return None
        collapsed = PermuteDimsOp.build([source], axes=tuple(order))
        return Replacement(collapsed.results[0], [collapsed])


class SqueezeExpandedDims(BindingPattern):
    """``squeeze`` of the axes ``expand_dims`` just added is the tensor before."""

    def replacement(self, op: SqueezeOp) -> Replacement | None:
        inner = op.x.owner
        squeezed = op.int_list("axis")
        if not isinstance(inner, ExpandDimsOp) or not squeezed:
            return None
        added = _axes(inner, inner.int_list("axis") or (), len(squeezed))
        return Replacement(inner.x) if added == _axes(op, squeezed, 0) else None


class ExpandSqueezedDims(BindingPattern):
    """``expand_dims`` at the axes ``squeeze`` just removed is the tensor before."""

    def replacement(self, op: ExpandDimsOp) -> Replacement | None:
        inner = op.x.owner
        added = op.int_list("axis")
        if not isinstance(inner, SqueezeOp) or not added:
            return None
        removed = inner.squeezed_axes()
        return Replacement(inner.x) if removed == _axes(op, added, 0) else None


def _order(op: PermuteDimsOp) -> list[int] | None:
    """The permutation ``op`` applies (input axis of each result axis), when its
    operand's rank is known."""
    x = op.x.type
    if not isinstance(x, TensorType) or x.rank == UNKNOWN_NDIM:
        return None
    axes = op.int_list("axes")
    if axes is None:
        return list(reversed(range(x.rank)))
    return normalize_axes(op.name, axes, x.rank)


def _axes(op: ExpandDimsOp | SqueezeOp, axes: Sequence[int], added: int) -> tuple[int, ...] | None:
    """``axes`` of ``op`` in ``[0, rank)``, sorted, where the rank is its operand's
    plus ``added``; None when the operand's rank is unknown."""
    x = op.x.type
    if not isinstance(x, TensorType) or x.rank == UNKNOWN_NDIM:
        return None
    return tuple(sorted(normalize_axes(op.name, axes, x.rank + added)))


def same_shape(source: object, result: object) -> bool:
    """Whether two tensor types provably have the same dimensions and data type."""
    if not (isinstance(source, TensorType) and isinstance(result, TensorType)):
        return False
    if source.dims is None or result.dims is None or source.data_type != result.data_type:
        return False
    if len(source.dims) != len(result.dims):
        return False
    return all(prove_equal(a, b) for a, b in zip(source.dims, result.dims, strict=True))


PATTERNS: tuple[BindingPattern, ...] = (
    ShapeOfKnownDims(),
    TensorToShapeOfConstant(),
    SizeOfStaticTensor(),
    ReshapeChain(),
    PermuteDimsChain(),
    SqueezeExpandedDims(),
    ExpandSqueezedDims(),
)
