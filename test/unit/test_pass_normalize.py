"""``relax-normalize`` through the Python API: callees come before their
callers, and a module out of normal form computes the same after it."""

from __future__ import annotations

import numpy as np
from test_pass_canonicalize_bindings import context
from xdsl.parser import Parser

from relax_dialect.analysis.call_graph import functions_callees_first
from relax_dialect.interpreter import run
from relax_dialect.ops.dataflow import DataflowOp
from relax_dialect.passes.normalize import NormalizePass
from relax_dialect.well_formed import check_well_formed

PROGRAM = """
relax.function @main(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.dataflow {
    %lv0 = relax.call @helper(%x) : !relax.tensor<[4], f32>
    relax.output %lv0
  }
  %e = relax.dataflow {
    relax.output %a
  }
  %b = relax.dataflow {
    %lv1 = relax.multiply %e, %x : !relax.object
    relax.output %lv1
  }
  relax.return %b
}
relax.function private @helper(%x: !relax.tensor<[k], f32>) {
  %y = relax.exp %x : !relax.tensor<f32>
  relax.return %y
}
"""


def test_callees_first() -> None:
    module = Parser(context(), PROGRAM).parse_module()
    assert [f.sym_name.data for f in functions_callees_first(module)] == ["helper", "main"]


def test_normal_form_and_results() -> None:
    module = Parser(context(), PROGRAM).parse_module()
    assert check_well_formed(module)
    x = np.linspace(0, 1, 4, dtype="float32")
    expected = run(module, "main", x)
    NormalizePass().apply(context(), module)
    assert not check_well_formed(module)
    assert sum(isinstance(op, DataflowOp) for op in module.walk()) == 1
    np.testing.assert_array_equal(run(module, "main", x), expected)  # pyright: ignore
