"""``relax-remove-unused-outputs``: results kept on the interpreter, through
dataflow blocks, symbolic shapes and a chain of private functions."""

from __future__ import annotations

import numpy as np
from operator_harness import load
from pass_harness import assert_same_results

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.types import TensorType, TupleType

VN = "!relax.tensor<[n], f32>"
PAIR = "!relax.tuple<tensor<[n], f32>, tensor<[n], f32>>"
TRIPLE = "!relax.tuple<tensor<[n], f32>, tensor<[n], f32>, tensor<[n], f32>>"


def test_results_kept() -> None:
    module = load(f"""
relax.function @main(%x: {VN}) -> {PAIR} {{
  %r = relax.dataflow {{
    %t = relax.call @outer(%x) : {TRIPLE}
    %a = relax.tuple_get_item %t[0]
    %c = relax.tuple_get_item %t[2]
    %r = relax.tuple(%a, %c)
    relax.output %r
  }}
  relax.return %r
}}
relax.function private @outer(%x: !relax.tensor<[m], f32>) -> !relax.tuple<tensor<[m], f32>, tensor<[m], f32>, tensor<[m], f32>> {{
  %i = relax.call @inner(%x) : !relax.tuple<tensor<[m], f32>, tensor<[m], f32>>
  %a = relax.tuple_get_item %i[0]
  %b = relax.tuple_get_item %i[1]
  %s = relax.sin %b
  %t = relax.tuple(%a, %s, %a)
  relax.return %t
}}
relax.function private @inner(%x: !relax.tensor<[k], f32>) -> !relax.tuple<tensor<[k], f32>, tensor<[k], f32>> {{
  %e = relax.exp %x
  %c = relax.cos %x
  %t = relax.tuple(%e, %c)
  relax.return %t
}}
""")
    after = assert_same_results(module, "relax-remove-unused-outputs", np.arange(3, dtype="f4"))
    outer, inner = function_named(after, "outer"), function_named(after, "inner")
    assert outer is not None and inner is not None
    assert isinstance(outer.result_info(), TupleType)
    assert len(outer.result_info().types) == 2  # pyright: ignore[reportAttributeAccessIssue]
    assert isinstance(inner.result_info(), TensorType)
