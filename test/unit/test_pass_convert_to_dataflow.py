"""``relax-convert-to-dataflow``: its ``min-size`` option."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.parser import Parser

from relax_dialect.dialect import Relax
from relax_dialect.ops.dataflow import DataflowOp
from relax_dialect.passes.convert_to_dataflow import ConvertToDataflowPass

PROGRAM = """
relax.function impure @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %a = relax.exp %x
  %b = relax.add %a, %x
  %p = relax.call_packed "builtin.identity"(%b) : !relax.object
  %c = relax.multiply %b, %a
  relax.return %c
}
"""


def context() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    return ctx


def test_min_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="min-size"):
        ConvertToDataflowPass(min_size=0)


@pytest.mark.parametrize(("min_size", "blocks"), [(1, 2), (2, 1), (3, 0)])
def test_min_size(min_size: int, blocks: int) -> None:
    module = Parser(context(), PROGRAM).parse_module()
    ConvertToDataflowPass(min_size=min_size).apply(context(), module)
    assert sum(isinstance(op, DataflowOp) for op in module.walk()) == blocks
