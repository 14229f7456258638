"""``relax-remove-unused-parameters``: results kept on the interpreter when symbolic
variables of removed parameters become ``prim`` parameters."""

from __future__ import annotations

import numpy as np
from operator_harness import load
from pass_harness import assert_same_results

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.types import PrimType


def test_results_kept() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[n, 2], f32>, %y: !relax.tensor<[3], f32>) -> !relax.tensor<[n + 1, 2], f32> {
  %t = relax.tuple(%x, %x)
  %c = relax.concat %t {axis = 0}
  %r = relax.call @func(%c, %y, %x) : !relax.tensor<[n + 1, 2], f32>
  relax.return %r
}
relax.function private @func(%a: !relax.tensor<[k, c], f32>, %b: !relax.tensor<[3], f32>, %x: !relax.tensor<[n, c], f32>) -> !relax.tensor<[k - n + 1, c], f32> {
  %s = relax.shape [k - n + 1, c]
  %o = relax.ones %s {dtype = f32}
  relax.return %o
}
""")
    after = assert_same_results(
        module, "relax-remove-unused-parameters", np.ones((4, 2), "f4"), np.zeros(3, "f4")
    )
    func = function_named(after, "func")
    assert func is not None
    assert [type(t) for t in func.param_types()] == [PrimType, PrimType, PrimType]
