"""User patterns of ``apply_patterns.mlir`` (``PATTERNS``: a ``BindingPattern``, the
short way to replace a Relax binding, and a plain xDSL ``RewritePattern``) and of
``apply_patterns_invalid.mlir`` (the others: patterns that go wrong)."""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from relax_dialect.attributes import DenseAttr
from relax_dialect.ops.binary import AddOp, MultiplyOp
from relax_dialect.ops.nn import ReluOp
from relax_dialect.ops.values import ConstantOp
from relax_dialect.rewriting.patterns import BindingPattern, Replacement
from relax_dialect.types import TensorType


class AddSelf(BindingPattern):
    """``x + x`` is ``x * 2`` (exact for floats, NaN and -0.0 included, and integers)."""

    def replacement(self, op: AddOp) -> Replacement | None:
        x = op.x1
        if op.x2 is not x or not isinstance(x.type, TensorType) or x.type.data_type.is_void:
            return None
        two = ConstantOp(DenseAttr.from_array(np.asarray(2, x.type.data_type.to_numpy())))
        product = MultiplyOp.build([x, two.result])
        return Replacement(product.result, [two, product])


class ReluOfRelu(RewritePattern):
    """``relu(relu(x))`` is ``relu(x)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReluOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.data.owner, ReluOp):
            rewriter.replace(op, [], [op.data])


class Broken(BindingPattern):
    """Replaces ``x + x`` by a multiplication whose declared type is wrong."""

    def replacement(self, op: AddOp) -> Replacement | None:
        wrong = TensorType([1], "f32")
        product = MultiplyOp.build([op.x1, op.x2], wrong)
        return Replacement(product.result, [product], binding_type=wrong)


class Raising(RewritePattern):
    """Fails on every operation it sees."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        raise ValueError("not today")


PATTERNS = [AddSelf(), ReluOfRelu()]
BROKEN = Broken()
RAISING = (Raising(),)
NOT_PATTERNS = {"add": AddSelf}
