"""``relax-simplify-shapes``: fold and simplify symbolic shape computations."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from ..attributes import DenseAttr, ShapeAttr
from ..ops.base import BindingOp
from ..ops.core import ShapeOfOp, SizeOp, TensorToShapeOp
from ..ops.manipulate import ReshapeOp
from ..ops.match_cast import MatchCastOp
from ..ops.values import ConstantOp, ShapeOp
from ..prim_expr import IntImm
from ..prim_expr_simplify import prove_equal
from ..rewriting.function_walk import FunctionWalk, Replacement, rewrite_functions
from ..struct_info import definable_vars, is_base_of, signature_mapping, substitute_vars
from ..types import StructInfoType, TensorType


class SimplifyShapesWalk(FunctionWalk):
    """The rewrites of ``relax-simplify-shapes``."""

    SIMPLIFY_ALL = True

    def rewrite(self, op: BindingOp) -> Replacement | None:
        if isinstance(op, ShapeOfOp):
            return shape_of_known(op)
        if isinstance(op, TensorToShapeOp):
            return tensor_to_shape_constant(op)
        if isinstance(op, SizeOp):
            return size_static(op)
        if isinstance(op, ReshapeOp):
            return reshape_chain(op)
        if isinstance(op, MatchCastOp):
            return self.match_cast_proven(op)
        return None

    def match_cast_proven(self, op: MatchCastOp) -> Replacement | None:
        """``match_cast`` of a value whose type proves the target: the value, the
        variables the cast binds replaced by their values in the rest of the scope."""
        source, target = op.value.type, op.target
        assert isinstance(source, StructInfoType)
        new = definable_vars([target]) - self.bound
        mapping = {k: v for k, v in signature_mapping([target], [source]).items() if k in new}
        if mapping.keys() != new:
            return None
        proven = substitute_vars(target, mapping)
        if not is_base_of(proven, source):
            return None
        if mapping and not self.refine:
            return None
        return Replacement(
            op.value, binding_type=proven, on_commit=lambda: self.substitute(mapping)
        )


def shape_of_known(op: ShapeOfOp) -> Replacement | None:
    """``shape_of`` of a tensor whose dimensions are known: the shape literal."""
    tensor = op.tensor.type
    if not isinstance(tensor, TensorType) or tensor.dims is None:
        return None
    shape = ShapeOp(ShapeAttr(tensor.dims))
    return Replacement(shape.result, [shape])


def tensor_to_shape_constant(op: TensorToShapeOp) -> Replacement | None:
    """``tensor_to_shape`` of a 1-d integer constant: the shape literal."""
    constant = op.tensor.owner
    if not isinstance(constant, ConstantOp):
        return None
    array = constant.value.array
    if array.ndim != 1 or array.dtype.kind not in "iu":
        return None
    shape = ShapeOp(ShapeAttr(tuple(IntImm(int(v)) for v in array)))
    return Replacement(shape.result, [shape])


def size_static(op: SizeOp) -> Replacement | None:
    """``size`` of a tensor of static shape: the constant element count."""
    tensor = op.tensor.type
    if not isinstance(tensor, TensorType) or tensor.dims is None:
        return None
    if not all(isinstance(d, IntImm) for d in tensor.dims):
        return None
    count = int(np.prod([d.value for d in tensor.dims], dtype=np.int64))  # pyright: ignore
    constant = ConstantOp(DenseAttr.from_array(np.array(count, dtype=np.int64)))
    return Replacement(constant.result, [constant])


def reshape_chain(op: ReshapeOp) -> Replacement | None:
    """``reshape(reshape(x, s1), s2)`` is ``reshape(x, s2)``; a reshape to the
    shape its operand already has is the operand."""
    source = op.x
    inner = source.owner
    zeros, _ = op.placeholders()
    if isinstance(inner, ReshapeOp) and not zeros:
        source = inner.x
    if _same_shape(source.type, op.results[0].type):
        return Replacement(source)
    if source is op.x:
        return None
    try:
        collapsed = ReshapeOp.build([source, op.shape])
    except VerifyException:
        return None
    return Replacement(collapsed.results[0], [collapsed])


def _same_shape(source: object, result: object) -> bool:
    if not (isinstance(source, TensorType) and isinstance(result, TensorType)):
        return False
    if source.dims is None or result.dims is None or source.data_type != result.data_type:
        return False
    if len(source.dims) != len(result.dims):
        return False
    return all(prove_equal(a, b) for a, b in zip(source.dims, result.dims, strict=True))


@dataclass(frozen=True)
class SimplifyShapesPass(ModulePass):
    """Fold and simplify symbolic shape computations: ``shape_of`` of a tensor
    with known dimensions becomes a shape literal, ``tensor_to_shape`` of a
    constant too, ``size`` of a static tensor a constant; reshape chains
    collapse and reshapes to the same shape disappear; a ``match_cast`` whose
    value's type already proves the target is dropped, the variables it would
    bind replaced by their known expressions; every symbolic expression in
    types and shape or prim value literals is simplified."""

    name = "relax-simplify-shapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_functions(op, SimplifyShapesWalk)
