"""``relax-to-non-dataflow`` after ``relax-convert-to-dataflow``: no dataflow
block is left, and the results stay the same."""

from __future__ import annotations

import numpy as np
from test_pass_convert_to_dataflow import PROGRAM, context
from xdsl.parser import Parser

from relax_dialect.interpreter import run
from relax_dialect.ops.dataflow import DataflowOp
from relax_dialect.passes.convert_to_dataflow import ConvertToDataflowPass
from relax_dialect.passes.to_non_dataflow import ToNonDataflowPass
from relax_dialect.well_formed import check_well_formed


def test_round_trip_keeps_results() -> None:
    module = Parser(context(), PROGRAM).parse_module()
    x = np.linspace(-1, 1, 5, dtype="float32")
    expected = run(module, "main", x)
    ConvertToDataflowPass().apply(context(), module)
    assert not check_well_formed(module)
    np.testing.assert_array_equal(run(module, "main", x), expected)  # pyright: ignore
    ToNonDataflowPass().apply(context(), module)
    assert not check_well_formed(module)
    assert not any(isinstance(op, DataflowOp) for op in module.walk())
    np.testing.assert_array_equal(run(module, "main", x), expected)  # pyright: ignore
