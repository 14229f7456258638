"""``relax-fold-constant``: options, and the same results on the reference
interpreter before and after folding."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context
from xdsl.passes import PassPipeline

from relax_dialect.analysis.walk import walk_ops
from relax_dialect.interpreter import run
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.passes import PASSES, pass_class
from relax_dialect.passes.fold_constant import FoldConstantPass
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed

PROGRAMS = {
    # Everything but the last binding folds.
    "chain_with_parameter": (
        """
relax.function @main(%x: !relax.tensor<[n, 3], f32>) -> !relax.tensor<[n, 3], f32> {
  %c = relax.constant dense<[3], f32, [1.0, -2.0, 3.5]>
  %e = relax.exp %c
  %s = relax.sum %e {axis = [0], keepdims = true}
  %d = relax.divide %e, %s
  %t = relax.tuple(%d, %c)
  %f = relax.tuple_get_item %t[0]
  %y = relax.multiply %x, %f
  relax.return %y
}
""",
        np.arange(6, dtype="float32").reshape(2, 3),
    ),
    # A shape computed from a constant tensor reaches a reshape.
    "data_dependent_reshape": (
        """
relax.function @main(%x: !relax.tensor<[12], f32>) -> !relax.tensor<ndim = 2, f32> {
  %c = relax.constant dense<[2], i64, [2, 3]>
  %two = relax.constant dense<[], i64, 2>
  %d = relax.multiply %c, %two
  %k = relax.constant dense<[2], i64, [1, 2]>
  %target = relax.floor_divide %d, %k
  %s = relax.tensor_to_shape %target : !relax.shape<ndim = 2>
  %y = relax.reshape %x, %s : !relax.tensor<ndim = 2, f32>
  relax.return %y
}
""",
        np.linspace(-1, 1, 12, dtype="float32"),
    ),
    # Operands known from types: shape_of, prim values, arange.
    "known_from_types": (
        """
relax.function @main(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %s = relax.shape_of %x
  %t = relax.shape_to_tensor %s
  %f = relax.astype %t {dtype = f32}
  %start = relax.prim_value 0
  %end = relax.prim_value 4
  %step = relax.prim_value 1
  %a = relax.arange %start, %end, %step {dtype = f32}
  %b = relax.add %a, %f
  %y = relax.add %x, %b
  relax.return %y
}
""",
        np.linspace(-1, 1, 4, dtype="float32"),
    ),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_same_results_after_folding(name: str) -> None:
    text, x = PROGRAMS[name]
    module = load(text)
    folded = module.clone()
    FoldConstantPass().apply(Context(), folded)
    assert check_well_formed(folded) == []
    operators = [op for op in walk_ops(folded.body) if isinstance(op, OperatorOp)]
    assert len(operators) == 1, [op.name for op in operators]
    before = flatten(run(module, "main", x))
    after = flatten(run(folded, "main", x))
    for expected, actual in zip(before, after, strict=True):
        np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))


def test_options_are_kebab_case_fields() -> None:
    available = {name: (lambda name=name: pass_class(name)) for name in PASSES}
    spec = "relax-fold-constant{max-size=4 max-creation-size=2 max-tir-size=0}"
    (folding,) = PassPipeline.parse_spec(available, spec).passes
    assert folding == FoldConstantPass(max_size=4, max_creation_size=2, max_tir_size=0)


def test_max_size_bounds_results_of_tensor_operands() -> None:
    module = load(PROGRAMS["chain_with_parameter"][0])
    FoldConstantPass(max_size=2).apply(Context(), module)
    assert "relax.exp" in str(module)
    FoldConstantPass(max_size=3).apply(Context(), module)
    assert "relax.exp" not in str(module)
