"""``relax-topological-sort``: options, and every traversal on random programs
(same results, well formed, a fixed point), including the programs that once
made it crash or change on a second run."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func

from relax_dialect.dialect import Relax
from relax_dialect.interpreter import run
from relax_dialect.passes.topological_sort import TopologicalSortPass
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed

sys.path.insert(0, str(Path(__file__).parents[1] / "passes"))
from random_programs import generate

SEEDS = (2, 30, 55, 76, 80, 128)
"""Closures using captured values in dataflow blocks (2), casts of already bound
variables (76, 128), and ties among uses of outer values (30, 55, 80)."""


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Relax):
        ctx.load_dialect(dialect)
    return ctx


@pytest.mark.parametrize(("order", "direction"), [("depth-first", "up"), ("random", "from-inputs")])
def test_rejects_unknown_options(order: str, direction: str) -> None:
    with pytest.raises(ValueError, match="must be one of"):
        TopologicalSortPass(order=order, direction=direction)


@pytest.mark.parametrize("order", ["depth-first", "breadth-first"])
@pytest.mark.parametrize("direction", ["from-inputs", "from-outputs"])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_programs(order: str, direction: str, seed: int) -> None:
    program = generate(seed)
    expected = flatten(run(program.module, program.entry, *program.inputs))
    module = program.module.clone()
    sort = TopologicalSortPass(order=order, direction=direction)
    sort.apply(context(), module)
    assert not check_well_formed(module)
    actual = flatten(run(module, program.entry, *program.inputs))
    for want, got in zip(expected, actual, strict=True):
        np.testing.assert_array_equal(got, want)  # pyright: ignore[reportArgumentType]
    once = str(module)
    sort.apply(context(), module)
    assert str(module) == once
