"""``relax-bind-params``: the Python API (by name or by argument), the ``.npz``
option, errors, and run-time agreement (TVM's test_bind_params)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.interpreter import run
from relax_dialect.passes.bind_params import BindParamsPass, bind_params
from relax_dialect.well_formed import check_well_formed

MLP = """
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, k], f32>, %b: !relax.tensor<[k], f32>) -> !relax.tensor<[n, k], f32> {
  %y = relax.dataflow {
    %h = relax.matmul %x, %w
    %y = relax.add %h, %b
    relax.output %y
  }
  relax.return %y
}
"""
RNG = np.random.default_rng(0)
W = RNG.standard_normal((4, 3)).astype("float32")
B = RNG.standard_normal(3).astype("float32")
X = RNG.standard_normal((2, 4)).astype("float32")


def test_bound_function_computes_the_same(tmp_path: Path) -> None:
    module = load(MLP)
    np.savez(tmp_path / "params.npz", w=W, b=B, unrelated=B)
    bound = module.clone()
    BindParamsPass(params=str(tmp_path / "params.npz")).apply(Context(), bound)
    assert check_well_formed(bound) == []
    main = function_named(bound, "main")
    assert main is not None and [p.name_hint for p in main.params] == ["x"]
    assert "-> !relax.tensor<[n, 3], f32>" in str(bound)
    np.testing.assert_array_equal(run(bound, "main", X), run(module, "main", X, W, B))


def test_by_block_argument() -> None:
    # TVM's test_bind_params_by_var_obj
    module = load(MLP)
    main = function_named(module, "main")
    assert main is not None
    bind_params(module, "main", {main.params[1]: W, "b": B})
    assert "%h = relax.matmul %x, %w : !relax.tensor<[n, 3], f32>" in str(module)


def test_argument_of_another_function() -> None:
    module = load(MLP + MLP.replace("@main", "@other"))
    other = function_named(module, "other")
    assert other is not None
    with pytest.raises(DiagnosticError, match="%w is not a parameter of @main"):
        bind_params(module, "main", {other.params[1]: W})


def test_ambiguous_parameter_name() -> None:
    module = load(MLP)
    main = function_named(module, "main")
    assert main is not None
    main.params[2].name_hint = "w"
    with pytest.raises(DiagnosticError, match="@main has 2 parameters named w"):
        bind_params(module, "main", {"w": W})


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({"w": W, "b": B[:2]}, "parameter %b: dimension k bound to 3, got 2"),
        ({"w": W.astype("float64")}, "parameter %w"),
    ],
)
def test_mismatches_leave_the_module_unchanged(arrays: dict[str, np.ndarray], message: str) -> None:
    module = load(MLP)
    before = str(module)
    with pytest.raises(DiagnosticError, match=message):
        bind_params(module, "main", arrays)
    assert str(module) == before


def test_unreadable_file_and_missing_function(tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_text("not an archive")
    with pytest.raises(DiagnosticError, match=r"cannot read .*bad\.npz.: not an \.npz archive"):
        BindParamsPass(params=str(tmp_path / "bad.npz")).apply(Context(), load(MLP))
    with pytest.raises(DiagnosticError, match="no function @other"):
        bind_params(load(MLP), "other", {"w": W})
