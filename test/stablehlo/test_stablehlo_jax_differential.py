"""JAX against the import, directly (skipped without JAX, which the project does
not depend on): each fixture program of ``generate_fixtures.py`` runs in JAX on
its inputs, and its StableHLO, lowered now by the installed JAX, imports and runs
on the reference interpreter to the same results (rtol 1e-4)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

sys.path.insert(0, str(Path(__file__).parent))

import generate_fixtures  # noqa: E402

from relax_dialect import frontends  # noqa: E402
from relax_dialect.interpreter import run  # noqa: E402
from relax_dialect.values import flatten  # noqa: E402

FIXTURES = {f.name: f for f in generate_fixtures.fixtures()}


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_import_agrees_with_jax(name: str) -> None:
    fixture = FIXTURES[name]
    function = jax.jit(fixture.function)
    expected = [np.asarray(y) for y in jax.tree_util.tree_leaves(function(*fixture.inputs))]
    text = function.lower(*fixture.inputs).as_text()
    module = frontends.read_module(text.encode(), name=f"{name}.mlir")
    got = [np.asarray(v) for v in flatten(run(module, "main", *fixture.inputs))]
    assert len(got) == len(expected)
    for i, (g, want) in enumerate(zip(got, expected, strict=True)):
        np.testing.assert_allclose(
            g, want.astype(g.dtype), rtol=1e-4, atol=1e-5, err_msg=f"result {i}"
        )
