"""``relax-canonicalize-bindings`` through the Python API: the results stay the
same where casts, tuples and dataflow outputs are simplified."""

from __future__ import annotations

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.parser import Parser

from relax_dialect.dialect import Relax
from relax_dialect.interpreter import run
from relax_dialect.ops.match_cast import MatchCastOp
from relax_dialect.passes.canonicalize_bindings import CanonicalizeBindingsPass
from relax_dialect.well_formed import check_well_formed

PROGRAM = """
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %o: !relax.object) -> !relax.tuple<tensor<[n, 2, 2], f32>, tensor<[n, 4], f32>> {
  %y, %z, %u = relax.dataflow {
    %a = relax.match_cast %x : !relax.tensor<[m, 4], f32>
    %s = relax.shape [m, 2, 2]
    %b = relax.reshape %a, %s
    %t = relax.tuple(%b, %a)
    %c = relax.tuple_get_item %t[0]
    %d = relax.match_cast %o : !relax.tensor<[m, 4], f32>
    relax.output %c, %d, %c
  }
  %r = relax.tuple(%y, %z)
  relax.return %r
}
"""


def context() -> Context:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    return ctx


def test_results_stay_and_only_the_fallible_cast_remains() -> None:
    module = Parser(context(), PROGRAM).parse_module()
    x = np.arange(12, dtype="float32").reshape(3, 4)
    expected = run(module, "main", x, x + 1)
    CanonicalizeBindingsPass().apply(context(), module)
    assert not check_well_formed(module)
    casts = [op for op in module.walk() if isinstance(op, MatchCastOp)]
    assert [str(cast.target) for cast in casts] == ["!relax.tensor<[n, 4], f32>"]
    for want, got in zip(expected, run(module, "main", x, x + 1), strict=True):  # pyright: ignore
        np.testing.assert_array_equal(got, want)
