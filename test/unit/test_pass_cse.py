"""``relax-cse``: the ``call-only`` option, and results kept on the interpreter
(in-place writes included)."""

from __future__ import annotations

import numpy as np
from operator_harness import load
from pass_harness import apply, assert_same_results
from xdsl.context import Context

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.passes.cse import EliminateCommonSubexprPass

V4 = "!relax.tensor<[4], f32>"

DUPLICATES = f"""
relax.function @main(%x: {V4}) -> {V4} {{
  %c1 = relax.constant dense<[4], f32, 2.0>
  %c2 = relax.constant dense<[4], f32, 2.0>
  %t1 = relax.tuple(%x, %c1)
  %t2 = relax.tuple(%x, %c2)
  %a = relax.concat %t1
  %b = relax.concat %t2
  %s = relax.add %a, %b
  %r = relax.sum %s {{axis = [0], keepdims = true}}
  %y = relax.add %x, %r
  relax.return %y
}}
"""


def bindings(module: object) -> list[str]:
    main = function_named(module, "main")  # pyright: ignore[reportArgumentType]
    assert main is not None
    return [op.name for op in main.body.block.ops]


def test_call_only() -> None:
    """With ``call-only``, leaf and tuple bindings stay, calls of equal leaves merge."""
    x = np.arange(4, dtype="float32")
    everything = assert_same_results(load(DUPLICATES), "relax-cse", x)
    assert bindings(everything).count("relax.constant") == 1
    assert bindings(everything).count("relax.tuple") == 1
    assert bindings(everything).count("relax.concat") == 1
    calls = assert_same_results(load(DUPLICATES), "relax-cse{call-only=true}", x)
    assert bindings(calls).count("relax.constant") == 2
    assert bindings(calls).count("relax.tuple") == 2
    assert bindings(calls).count("relax.concat") == 1


def test_call_only_from_python() -> None:
    module = load(DUPLICATES)
    EliminateCommonSubexprPass(call_only=True).apply(Context(), module)
    assert str(module) == str(apply(load(DUPLICATES), "relax-cse{call-only=true}"))


def test_in_place_writes() -> None:
    """Merging two fresh tensors, one of which is then written in place, would let
    the write show through the other."""
    module = load(f"""
relax.function @main(%y: {V4}) -> !relax.tuple<tensor<[4], f32>, tensor<[4], f32>, tensor<[4], f32>> {{
  %s = relax.shape [4]
  %z1 = relax.zeros %s {{dtype = f32}}
  %z2 = relax.zeros %s {{dtype = f32}}
  %w = relax.call_tir_inplace @accumulate(%z1, %y) {{inplace_indices = [0]}} : {V4}
  %z3 = relax.zeros %s {{dtype = f32}}
  %t = relax.tuple(%w, %z2, %z3)
  relax.return %t
}}
func.func private @accumulate(%a: tensor<4xf32>, %b: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {{
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%out : tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}}
""")
    after = assert_same_results(module, "relax-cse", np.ones(4, dtype="float32"))
    assert bindings(after).count("relax.zeros") == 2
