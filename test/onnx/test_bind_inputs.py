"""Specialising a model on some graph inputs (``from_onnx(bind_inputs=...)``,
``--bind-inputs``), and the refusals that say which inputs to bind."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx_check import helper, model, onnx

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx, inputs_to_bind
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.values import to_value
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.tools.relax_opt import main as relax_opt
from relax_xdsl.tools.relax_run import main as relax_run

RNG = np.random.default_rng(32)
X = RNG.standard_normal((3, 4)).astype(np.float32)
ANY = ["d0", "d1"]
"""An output's declared shape, when the importer is to find the dimensions."""


def reduce_sum(axes_from: str = "axes", **attributes: object) -> onnx.ModelProto:
    """``ReduceSum(x, axes)`` at opset 18 (axes an input), ``x`` of shape ``[n, 4]``."""
    nodes = [helper.make_node("ReduceSum", ["x", axes_from], ["y"], name="r", **attributes)]
    inputs = {"x": (np.float32, ["n", 4]), "axes": (np.int64, [1])}
    shape = ANY[: 1 + int(attributes.get("keepdims", 1))]  # type: ignore[call-overload]
    return model(nodes, inputs, {"y": (np.float32, shape)}, opset=18)


def signature(module: object) -> str:
    return next(line for line in print_tvmscript(module).splitlines() if "def main" in line)


def outputs(module: object, *args: np.ndarray, backend: str = "reference") -> np.ndarray:
    main = compile_function(module, "main", backend)
    params = next(op for op in module.body.block.ops).body.block.args  # pyright: ignore
    return np.asarray(main(*(to_value(a, p.type) for a, p in zip(args, params, strict=True))))


@pytest.mark.parametrize("backend", ["reference", "lowered"])
def test_a_bound_input_becomes_a_constant_and_leaves_main(backend: str) -> None:
    module = from_onnx(reduce_sum(keepdims=0), bind_inputs={"axes": np.array([1])})
    assert signature(module).strip() == (
        'def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):'
    )
    np.testing.assert_allclose(outputs(module, X, backend=backend), X.sum(axis=1), rtol=1e-6)


def test_the_refusal_names_the_graph_inputs_that_decide_the_value() -> None:
    with pytest.raises(DiagnosticError) as caught:
        from_onnx(reduce_sum())
    assert str(caught.value) == (
        "model.onnx: node 'r' (ReduceSum, opset 18): error: the axes computed at run time is "
        "not supported: it must be known at import time (it depends on graph input 'axes'; "
        "bind it with --bind-inputs)"
    )
    assert inputs_to_bind(caught.value) == ("axes",)


def test_the_trace_goes_through_nodes_to_every_input_it_reaches() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Add", ["a", "b"], ["sum"]),
        helper.make_node("Sub", ["sum", "one"], ["axes"]),
        helper.make_node("ReduceSum", ["x", "axes"], ["y"], name="r"),
    ]
    inputs = {"b": (np.int64, [1]), "x": (np.float32, [3, 4]), "a": (np.int64, [1])}
    m = model(nodes, inputs, {"y": (np.float32, ANY)}, {"one": np.array([1])}, opset=18)
    with pytest.raises(DiagnosticError, match=r"graph inputs 'b', 'a'; bind them") as caught:
        from_onnx(m)
    assert inputs_to_bind(caught.value) == ("b", "a")
    module = from_onnx(m, bind_inputs={"a": np.array([1]), "b": np.array([1])})
    np.testing.assert_allclose(outputs(module, X), X.sum(axis=1, keepdims=True), rtol=1e-6)


def test_the_trace_follows_the_outer_names_a_subgraph_reads() -> None:
    def branch(name: str, read: str) -> onnx.GraphProto:
        out = helper.make_tensor_value_info(name, onnx.TensorProto.INT64, [1])
        return helper.make_graph([helper.make_node("Identity", [read], [name])], name, [], [out])

    nodes = [
        helper.make_node(
            "If", ["c"], ["axes"], then_branch=branch("t", "a"), else_branch=branch("e", "b")
        ),
        helper.make_node("ReduceSum", ["x", "axes"], ["y"], name="r"),
    ]
    inputs = {
        "x": (np.float32, [3, 4]),
        "c": (np.bool_, []),
        "a": (np.int64, [1]),
        "b": (np.int64, [1]),
    }
    with pytest.raises(DiagnosticError) as caught:
        from_onnx(model(nodes, inputs, {"y": (np.float32, ANY)}, opset=18))
    assert inputs_to_bind(caught.value) == ("c", "a", "b")


def test_other_refusals_have_no_inputs_to_bind() -> None:
    bernoulli = helper.make_node("Bernoulli", ["x"], ["d"], name="bernoulli")
    m = model([bernoulli], {"x": (np.float32, [2, 2])}, {"d": (np.float32, [2, 2])})
    with pytest.raises(DiagnosticError) as caught:
        from_onnx(m)
    assert inputs_to_bind(caught.value) is None


def test_unbound_inputs_keep_their_symbolic_dimensions_and_bound_ones_fix_theirs() -> None:
    nodes = [
        helper.make_node("Pad", ["x", "pads"], ["p"], name="pad"),
        helper.make_node("Add", ["p", "bias"], ["y"]),
    ]
    inputs = {
        "x": (np.float32, ["n", "k"]),
        "pads": (np.int64, ["r"]),
        "bias": (np.float32, ["r"]),
    }
    m = model(nodes, inputs, {"y": (np.float32, ANY)}, opset=18)
    pads = np.array([0, 1, 0, 1])
    module = from_onnx(m, bind_inputs={"pads": pads})
    assert (
        signature(module)
        .strip()
        .startswith('def main(x: R.Tensor(("n", "k"), dtype="float32"), bias: R.Tensor((4,), ')
    )
    bias = RNG.standard_normal(4).astype(np.float32)
    x = RNG.standard_normal((2, 2)).astype(np.float32)
    want = np.pad(x, ((0, 0), (1, 1))) + bias
    np.testing.assert_allclose(outputs(module, x, bias), want, rtol=1e-6)


@pytest.mark.parametrize(
    ("bound", "message"),
    [
        (
            {"axis": np.array([1])},
            "input 'axis': error: cannot bind 'axis': it is not an input of the graph "
            "(its inputs: 'x', 'axes')",
        ),
        (
            {"axes": np.array([1], np.int32)},
            "input 'axes': error: the value bound is int32, the input is int64",
        ),
        (
            {"axes": np.array([1, 0])},
            "input 'axes': error: the value bound has shape [2], the input is declared [1]",
        ),
        (
            {"axes": np.array([[1]])},
            "input 'axes': error: the value bound has shape [1, 1], the input is declared [1]",
        ),
        (
            {"x": X, "axes": np.array([1])},
            None,
        ),
    ],
)
def test_a_value_that_does_not_fit_its_input_is_an_error_naming_it(
    bound: dict[str, np.ndarray], message: str | None
) -> None:
    if message is None:  # every input bound: main takes nothing
        module = from_onnx(reduce_sum(), bind_inputs=bound)
        assert signature(module).strip().startswith("def main() ->")
        return
    with pytest.raises(DiagnosticError) as caught:
        from_onnx(reduce_sum(), bind_inputs=bound)
    assert str(caught.value) == f"model.onnx: {message}"


def test_a_dim_param_bound_twice_must_agree() -> None:
    nodes = [helper.make_node("Add", ["a", "b"], ["y"])]
    m = model(nodes, {"a": (np.float32, ["n"]), "b": (np.float32, ["n"])}, ["y"])
    bound = {"a": np.zeros(2, np.float32), "b": np.zeros(3, np.float32)}
    with pytest.raises(DiagnosticError, match=r"input 'b': error: .*'n' is 2 in another bound"):
        from_onnx(m, bind_inputs=bound)


def test_an_initializer_is_not_bound() -> None:
    nodes = [helper.make_node("ReduceSum", ["x", "axes"], ["y"])]
    m = model(nodes, {"x": (np.float32, [3, 4])}, ["y"], {"axes": np.array([1])}, opset=18)
    with pytest.raises(DiagnosticError, match="'axes': it is an initializer, a constant already"):
        from_onnx(m, bind_inputs={"axes": np.array([0])})


def test_an_input_without_elements_is_known_at_import_time() -> None:
    """``axes`` declared ``[0]`` has one possible value: ReduceSum's empty axes."""
    for noop, want in ((0, X.sum(keepdims=True)), (1, X)):
        nodes = [helper.make_node("ReduceSum", ["x", "axes"], ["y"], noop_with_empty_axes=noop)]
        inputs = {"x": (np.float32, [3, 4]), "axes": (np.int64, [0])}
        module = from_onnx(model(nodes, inputs, {"y": (np.float32, ANY)}, opset=18))
        np.testing.assert_allclose(outputs(module, X, np.zeros(0, np.int64)), want, rtol=1e-6)


def test_a_one_dimensional_cumsum_needs_no_known_axis() -> None:
    nodes = [helper.make_node("CumSum", ["x", "axis"], ["y"])]
    inputs = {"x": (np.float32, ["n"]), "axis": (np.int32, [])}
    module = from_onnx(model(nodes, inputs, ["y"], opset=14))
    x = RNG.standard_normal(5).astype(np.float32)
    np.testing.assert_allclose(outputs(module, x, np.array(-1, np.int32)), np.cumsum(x), rtol=1e-6)


def test_a_zero_ratio_makes_a_run_time_training_mode_moot() -> None:
    nodes = [helper.make_node("Dropout", ["x", "ratio", "training"], ["y", "mask"])]
    inputs = {"x": (np.float32, [3, 4]), "training": (np.bool_, [])}
    m = model(nodes, inputs, ["y", "mask"], {"ratio": np.array(0.0, np.float32)}, opset=13)
    module = from_onnx(m)
    main = compile_function(module, "main", "reference")
    y, mask = main(to_value(X, None), to_value(np.array(True), None))
    np.testing.assert_array_equal(np.asarray(y), X)
    assert np.asarray(mask).all()
    nodes = [helper.make_node("Dropout", ["x", "ratio", "training"], ["y"], name="drop")]
    m = model(nodes, {**inputs, "ratio": (np.float32, [])}, ["y"], opset=13)
    with pytest.raises(DiagnosticError, match="depends on graph input 'training'"):
        from_onnx(m)


@pytest.fixture
def reduce_model(tmp_path: Path) -> Path:
    path = tmp_path / "reduce.onnx"
    onnx.save(reduce_sum(keepdims=0), str(path))
    np.savez(tmp_path / "in.npz", x=X, axes=np.array([1]))
    np.savez(tmp_path / "axes.npz", axes=np.array([1]))
    return path


def test_relax_opt_binds_the_inputs_of_an_npz(
    reduce_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    axes = reduce_model.parent / "axes.npz"
    assert relax_opt([str(reduce_model), "--bind-inputs", str(axes)]) == 0
    out = capsys.readouterr().out
    assert "relax.function @main(%x: !relax.tensor<[n, 4], f32>)" in out
    assert relax_opt([str(reduce_model)]) == 1
    assert "bind it with --bind-inputs" in capsys.readouterr().err
    missing = reduce_model.parent / "missing.npz"
    assert relax_opt([str(reduce_model), "--bind-inputs", str(missing)]) == 2
    assert "cannot read the inputs to bind" in capsys.readouterr().err


def test_relax_run_binds_the_inputs_it_names_with_their_values_from_inputs(
    reduce_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs, out = reduce_model.parent / "in.npz", reduce_model.parent / "out.npz"
    argv = [str(reduce_model), "--inputs", str(inputs), "--outputs", str(out)]
    capsys.readouterr()
    assert relax_run([*argv, "--bind-inputs", "axes", "--backend", "reference,lowered"]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err  # 'axes' of --inputs is used
    np.testing.assert_allclose(np.load(out)["out0"], X.sum(axis=1), rtol=1e-6)
    assert relax_run([*argv, "--bind-inputs", "axis"]) == 2
    assert "--bind-inputs: no 'axis' in --inputs" in capsys.readouterr().err
    assert relax_run([str(reduce_model), "--bind-inputs", "axes"]) == 2
    assert "from --inputs" in capsys.readouterr().err
    np.savez(inputs, x=X, axes=np.array([1], np.int32))
    assert relax_run([*argv, "--bind-inputs", "axes"]) == 1
    err = capsys.readouterr().err
    assert f"{reduce_model}: input 'axes': error: the value bound is int32" in err
