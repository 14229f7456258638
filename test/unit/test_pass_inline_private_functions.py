"""``relax-inline-private-functions``: results kept on the interpreter, and the
argument checks a call made kept as ``match_cast``."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from pass_harness import apply, assert_same_results

from relax_dialect.interpreter import RelaxRuntimeError, run

PROGRAM = """
relax.function @main(%x: !relax.tensor<ndim = 1, f32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<ndim = 1, f32> {
  %r = relax.dataflow {
    %a = relax.exp %x
    %b = relax.call @pick(%a, %c) : !relax.tensor<ndim = 1, f32>
    %r = relax.call @twice(%b) : !relax.tensor<ndim = 1, f32>
    relax.output %r
  }
  relax.return %r
}
relax.function private @pick(%a: !relax.tensor<[n], f32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<ndim = 1, f32> {
  %r = relax.if %c : !relax.tensor<ndim = 1, f32> {
    %s = relax.sin %a
    relax.yield %s
  } else {
    %t = relax.call @fixed(%a) : !relax.tensor<[4], f32>
    %u = relax.call @twice(%t) : !relax.tensor<[8], f32>
    relax.yield %u
  }
  relax.return %r
}
relax.function private @fixed(%v: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %w = relax.multiply %v, %v
  relax.return %w
}
relax.function private @twice(%v: !relax.tensor<[m], f32>) -> !relax.tensor<[2 * m], f32> {
  %t = relax.tuple(%v, %v)
  %w = relax.concat %t {axis = 0}
  relax.return %w
}
"""


@pytest.mark.parametrize("cond", [True, False])
def test_results_kept(cond: bool) -> None:
    after = assert_same_results(
        load(PROGRAM), "relax-inline-private-functions", np.arange(4, dtype="f4"), np.array(cond)
    )
    assert "relax.call " not in str(after) and "private" not in str(after)


def test_argument_checks_kept() -> None:
    """@fixed takes a [4] tensor: a [3] argument fails, before and after inlining."""
    after = apply(load(PROGRAM), "relax-inline-private-functions")
    for module in (load(PROGRAM), after):
        with pytest.raises(RelaxRuntimeError):
            run(module, "main", np.arange(3, dtype="f4"), np.array(False))
