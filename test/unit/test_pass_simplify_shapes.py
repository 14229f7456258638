"""``relax-simplify-shapes``: the same results on the reference interpreter
before and after, on symbolic shapes, and a refinement that fails rolled back."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context

from relax_dialect.analysis.walk import walk_ops
from relax_dialect.interpreter import run
from relax_dialect.ops.manipulate import ReshapeOp
from relax_dialect.ops.match_cast import MatchCastOp
from relax_dialect.passes.simplify_shapes import SimplifyShapesPass
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed

PROGRAMS = {
    # The cast goes, o and p become m and n; the reshape chain collapses to one.
    "match_cast_and_reshapes": """
relax.function @main(%x: !relax.tensor<[m, n], f32>) -> !relax.tensor<ndim = 1, f32> {
  %z = relax.match_cast %x : !relax.tensor<[o, p], f32>
  %s1 = relax.shape [p, o]
  %r1 = relax.reshape %z, %s1
  %s2 = relax.shape [o * p]
  %r2 = relax.reshape %r1, %s2
  %q = relax.add %r2, %r2
  relax.return %q
}
""",
    # shape_of, size and tensor_to_shape of known values.
    "shape_values": """
relax.function @main(%x: !relax.tensor<[m, n], f32>) -> !relax.tensor<ndim = 2, f32> {
  %s = relax.shape_of %x
  %y = relax.reshape %x, %s
  %c = relax.constant dense<[2], i64, [-1, 1]>
  %t = relax.tensor_to_shape %c : !relax.shape<ndim = 2>
  %v = relax.reshape %y, %t : !relax.tensor<ndim = 2, f32>
  %k = relax.size %v
  %f = relax.astype %k {dtype = f32}
  %w = relax.add %v, %f
  relax.return %w
}
""",
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_same_results_after_simplifying(name: str) -> None:
    module = load(PROGRAMS[name])
    simplified = module.clone()
    SimplifyShapesPass().apply(Context(), simplified)
    assert check_well_formed(simplified) == []
    assert str(simplified) != str(module)
    for shape in ((2, 3), (1, 5)):
        x = np.arange(np.prod(shape), dtype="float32").reshape(shape)
        before = flatten(run(module, "main", x))
        after = flatten(run(simplified, "main", x))
        for expected, actual in zip(before, after, strict=True):
            np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))


def test_collapses_to_one_reshape_without_cast() -> None:
    module = load(PROGRAMS["match_cast_and_reshapes"])
    SimplifyShapesPass().apply(Context(), module)
    ops = list(walk_ops(module.body))
    assert [type(op) for op in ops if isinstance(op, ReshapeOp | MatchCastOp)] == [ReshapeOp]


def test_refinement_that_breaks_an_operation_is_rolled_back() -> None:
    # Substituting k = 3 would prove the reshape in the unexecuted branch invalid:
    # the function keeps its types, and the cast is kept.
    text = """
relax.function @main(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[3], f32>) -> !relax.tensor<ndim = 1, f32> {
  %y = relax.match_cast %x : !relax.tensor<[k], f32>
  %r = relax.if %c : !relax.tensor<ndim = 1, f32> {
    %s = relax.shape [4]
    %z = relax.reshape %y, %s : !relax.tensor<ndim = 1, f32>
    relax.yield %z
  } else {
    relax.yield %y
  }
  relax.return %r
}
"""
    module = load(text)
    SimplifyShapesPass().apply(Context(), module)
    assert check_well_formed(module) == []
    text = str(module)
    assert "relax.match_cast %x : !relax.tensor<[k], f32>" in text
    assert "relax.reshape %y, %s : !relax.tensor<ndim = 1, f32>" in text
