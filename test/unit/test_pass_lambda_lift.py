"""``relax-lambda-lift`` run before and after on the reference interpreter: closures,
recursion, captured symbolic variables, closures returned and passed to functions."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context

from relax_dialect.analysis.walk import walk_ops
from relax_dialect.interpreter import run
from relax_dialect.ops.functions import LambdaOp
from relax_dialect.passes.lambda_lift import LambdaLiftPass
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed

V3 = "!relax.tensor<[3], f32>"
ADDER = "(tensor<[3], f32>) -> tensor<[3], f32>"

PROGRAMS = {
    "closure_returned_and_passed": f"""
relax.function @make(%x: {V3}) -> !relax.func<{ADDER}> {{
  %f = relax.lambda (%y: {V3}) -> {V3} {{
    %z = relax.add %x, %y
    relax.return %z
  }}
  relax.return %f
}}
relax.function @apply(%g: !relax.func<{ADDER}>, %x: {V3}) -> {V3} {{
  %r = relax.invoke %g(%x) : {V3}
  relax.return %r
}}
relax.function @main(%x: {V3}) -> {V3} {{
  %f = relax.call @make(%x) : !relax.func<{ADDER}>
  %r = relax.invoke %f(%x) : {V3}
  %s = relax.call @apply(%f, %r) : {V3}
  relax.return %s
}}
""",
    "recursive_closure": f"""
relax.function @main(%x: {V3}) -> {V3} {{
  %loop = relax.lambda recursive(%self) (%i: !relax.tensor<[], i32>, %s: {V3}) -> {V3} {{
    %ten = relax.constant dense<[], i32, 4>
    %cond = relax.less %i, %ten
    %r = relax.if %cond : {V3} {{
      %one = relax.constant dense<[], i32, 1>
      %j = relax.add %i, %one
      %t = relax.multiply %s, %x
      %rr = relax.invoke %self(%j, %t) : {V3}
      relax.yield %rr
    }} else {{
      relax.yield %s
    }}
    relax.return %r
  }}
  %zero = relax.constant dense<[], i32, 0>
  %r = relax.invoke %loop(%zero, %x) : {V3}
  relax.return %r
}}
""",
    "captured_symbolic_variable": """
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<ndim = 1, f32> {
  %t = relax.tuple(%x, %x)
  %y = relax.concat %t {axis = 0}
  %f = relax.lambda (%a: !relax.tensor<[], f32>) -> !relax.tensor<ndim = 1, f32> {
    %s = relax.shape [n]
    %z = relax.full %s, %a
    %r = relax.tuple(%y, %z)
    %c = relax.concat %r {axis = 0}
    relax.return %c
  }
  %two = relax.constant dense<[], f32, 2.0>
  %r = relax.invoke %f(%two) : !relax.tensor<ndim = 1, f32>
  relax.return %r
}
""",
    "closures_through_if_and_tuple": f"""
relax.function @main(%x: {V3}) -> {V3} {{
  %g = relax.lambda (%y: {V3}) -> {V3} {{
    %z = relax.multiply %x, %y
    relax.return %z
  }}
  %h = relax.lambda (%y: {V3}) -> {V3} {{
    %z = relax.negative %y
    relax.return %z
  }}
  %index = relax.constant dense<[], i64, 0>
  %x0 = relax.take %x, %index {{axis = 0}}
  %zero = relax.constant dense<[], f32, 0.0>
  %b = relax.greater %x0, %zero
  %k = relax.if %b {{
    relax.yield %g
  }} else {{
    relax.yield %h
  }}
  %t = relax.tuple(%h, %g)
  %t0 = relax.tuple_get_item %t[0]
  %r1 = relax.invoke %k(%x) : {V3}
  %r2 = relax.invoke %t0(%r1) : {V3}
  relax.return %r2
}}
""",
}


def lift(text: str) -> tuple[object, object]:
    module = load(text)
    lifted = module.clone()
    LambdaLiftPass().apply(Context(), lifted)
    return module, lifted


@pytest.mark.parametrize("name", PROGRAMS)
def test_same_results_after_lifting(name: str) -> None:
    module, lifted = lift(PROGRAMS[name])
    assert check_well_formed(lifted) == []  # pyright: ignore[reportArgumentType]
    assert not any(isinstance(op, LambdaOp) for op in walk_ops(lifted.body))  # pyright: ignore
    for x in (np.array([1.5, -2.0, 0.5], "float32"), np.array([-1.0, 3.0, 2.0], "float32")):
        before = flatten(run(module, "main", x))  # pyright: ignore[reportArgumentType]
        after = flatten(run(lifted, "main", x))  # pyright: ignore[reportArgumentType]
        assert len(before) == len(after)
        for expected, actual in zip(before, after, strict=True):
            np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))


def test_captured_symbolic_variable_is_passed_as_a_shape() -> None:
    _, lifted = lift(PROGRAMS["captured_symbolic_variable"])
    text = str(lifted)
    assert "relax.function private @main_f(%y: !relax.tensor<[2 * n], f32>, " in text
    assert "%tir_vars: !relax.shape<[n]>, %a: !relax.tensor<[], f32>)" in text
    assert "relax.make_closure @main_f(%y, %tir_vars)" in text
