"""``relax-simplify-shapes``: fold and simplify symbolic shape computations."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..canonicalization import shapes
from ..ops.base import BindingOp
from ..ops.functions import FunctionOp
from ..ops.match_cast import MatchCastOp
from ..rewriting.function_walk import FunctionWalk, rewrite_functions
from ..rewriting.patterns import Replacement
from ..struct_info import definable_vars, is_base_of, signature_mapping, substitute_vars
from ..types import StructInfoType


class SimplifyShapesWalk(FunctionWalk):
    """The walk of ``relax-simplify-shapes``: the patterns of
    ``canonicalization.shapes``, and ``match_cast`` proven by the scope."""

    SIMPLIFY_ALL = True

    def __init__(self, function: FunctionOp, refine: bool):
        super().__init__(function, refine, patterns=shapes.PATTERNS)

    def rewrite(self, op: BindingOp) -> Replacement | None:
        if isinstance(op, MatchCastOp):
            return self.match_cast_proven(op)
        return super().rewrite(op)

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


@dataclass(frozen=True)
class SimplifyShapesPass(ModulePass):
    """Fold and simplify symbolic shape computations (the patterns of
    ``canonicalization.shapes``): ``shape_of`` of a tensor with known dimensions
    becomes a shape literal, ``tensor_to_shape`` of a constant too, ``size`` of a
    static tensor a constant; reshape chains collapse and reshapes to the same
    shape disappear. Beyond a local rewrite: a ``match_cast`` whose
    value's type already proves the target is dropped, the variables it would
    bind replaced by their known expressions; every symbolic expression in
    types and shape or prim value literals is simplified."""

    name = "relax-simplify-shapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_functions(op, SimplifyShapesWalk)
