"""Shape computations on known shapes, and chains of shape manipulations
(``relax-simplify-shapes``, ``canonicalize``)."""

from __future__ import annotations

import numpy as np
from xdsl.utils.exceptions import VerifyException

from ..attributes import DenseAttr, ShapeAttr
from ..ops.core import ShapeOfOp, SizeOp, TensorToShapeOp
from ..ops.manipulate import ReshapeOp
from ..ops.values import ConstantOp, ShapeOp
from ..prim_expr import IntImm
from ..prim_expr_simplify import prove_equal
from ..rewriting.patterns import BindingPattern, Replacement
from ..types import TensorType


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
    """``reshape(reshape(x, s1), s2)`` is ``reshape(x, s2)``, and a reshape to the
    shape its operand already has is the operand."""

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
)
