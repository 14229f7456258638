"""The JAX fixtures end to end: each ``.mlir`` of ``fixtures/`` (static, exported
with symbolic dimensions, generic form) imports through the StableHLO frontend,
is well formed, keeps its symbolic dimensions by name, and runs on every backend
agreeing with JAX's outputs (``NAME.npz``). ``generate_fixtures.py`` regenerates
them (with JAX, which the project does not depend on)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from relax_dialect import frontends
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.prim_expr import free_vars
from relax_dialect.types import TensorType
from relax_dialect.values import flatten
from relax_dialect.well_formed import check_well_formed
from relax_xdsl.lowering.backends import compile_function

pytestmark = pytest.mark.heavy

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(Path(__file__).parents[1] / "lowering"))

from convert_harness import native_available  # noqa: E402

RTOL, ATOL = 1e-4, 1e-5
PROGRAMS = sorted(p.name for p in FIXTURES.glob("*.mlir"))
SYMBOLIC = {
    "mlp": [["b", 784]],
    "cnn": [["b", 8, 8, 3]],
    "encoder_layer": [["b", "s", 8], ["b", "s", "s"]],
    "decoder_step": [["b", 1, 8], ["b", 6, 8], ["b", 6, 8]],
    "fori_loop": [["b", 4]],
    "scan": [["b", 5, 3], ["b", 4]],
    "op_unary": [["b", 4], ["b", 4]],
}
"""The leading parameters' shapes of some symbolic exports, as ``jax.export`` named them."""


@cache
def imported(name: str) -> ModuleOp:
    return frontends.read_module(FIXTURES / name)


def arrays(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    data = np.load(FIXTURES / f"{name.split('.')[0]}.npz")
    count = lambda prefix: sum(1 for k in data if k.startswith(prefix))  # noqa: E731
    return [data[f"arg{i}"] for i in range(count("arg"))], [
        data[f"out{i}"] for i in range(count("out"))
    ]


@pytest.mark.parametrize("name", PROGRAMS)
def test_imports_well_formed(name: str) -> None:
    assert check_well_formed(imported(name)) == []


@pytest.mark.parametrize("name", sorted(SYMBOLIC))
def test_symbolic_dimensions_keep_their_names(name: str) -> None:
    main = next(op for op in imported(f"{name}.sym.mlir").walk() if isinstance(op, FunctionOp))
    shapes = [[str(d) for d in p.type.dims] for p in main.params if isinstance(p.type, TensorType)]
    assert shapes[: len(SYMBOLIC[name])] == [[str(d) for d in s] for s in SYMBOLIC[name]]


@pytest.mark.parametrize("name", [p for p in PROGRAMS if ".sym." in p])
def test_symbolic_results(name: str) -> None:
    """The results of a symbolic export are shaped by the named dimensions (no
    dimension is left unknown)."""
    main = next(op for op in imported(name).walk() if isinstance(op, FunctionOp))
    for param in main.params:
        assert isinstance(param.type, TensorType) and param.type.dims is not None
        assert all(not v.startswith("d") for d in param.type.dims for v in free_vars(d)), name


@pytest.mark.parametrize("backend", ["reference", "lowered", "mlir"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_agrees_with_jax(name: str, backend: str) -> None:
    if backend == "mlir":
        native_available()
    inputs, expected = arrays(name)
    compiled = compile_function(imported(name), "main", backend)
    got = [np.asarray(v) for v in flatten(compiled(*inputs))]
    assert len(got) == len(expected)
    for i, (g, want) in enumerate(zip(got, expected, strict=True)):
        assert g.shape == want.shape, f"result {i}"
        if want.dtype.kind == "f":
            np.testing.assert_allclose(g, want, rtol=RTOL, atol=ATOL, err_msg=f"result {i}")
        else:
            np.testing.assert_array_equal(g, want.astype(g.dtype), err_msg=f"result {i}")
