"""The importer as a whole: symbolic dimensions, shape folding, weights as
constants or parameters, subgraphs, and its errors through the tools."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from onnx_check import check, helper, model, onnx, single

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.frontends.onnx.context import NodeContext
from relax_dialect.frontends.onnx.converters.registry import converter, lookup
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.well_formed import check_well_formed
from relax_xdsl.tools.relax_opt import main as relax_opt
from relax_xdsl.tools.relax_run import main as relax_run

RNG = np.random.default_rng(3)


def i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def main_signature(module: object) -> str:
    return next(line for line in print_tvmscript(module).splitlines() if "def main" in line)


def heads_model() -> onnx.ModelProto:
    """BERT's reshape to heads as exporters write it (``Shape → Gather → Unsqueeze
    → Concat → Reshape``, then the heads transposed forward): the lit tests' model."""
    return onnx.load(str(Path(__file__).parents[1] / "filecheck/onnx/Inputs/heads.onnx"))


def test_reshape_to_heads_keeps_the_symbolic_dimensions() -> None:
    module = from_onnx(heads_model())
    signature = main_signature(module)
    assert 'x: R.Tensor(("batch", "seq", 768), dtype="float32")' in signature
    assert '-> R.Tensor(("batch", 12, "seq", 64), dtype="float32")' in signature
    x = RNG.standard_normal((2, 5, 768)).astype(np.float32)
    check(heads_model(), {"x": x})


def test_shape_arithmetic_folds_symbolically() -> None:
    """``Shape → Slice → Concat`` and ``Shape → Gather → Div → Mul`` (a head
    size computed from the hidden size) keep ``n``."""
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Slice", ["shape", "start", "end"], ["lead"]),
        helper.make_node("Gather", ["shape", "two"], ["hidden"], axis=0),
        helper.make_node("Div", ["hidden", "four"], ["quarter"]),
        helper.make_node("Mul", ["quarter", "two_"], ["half"]),
        helper.make_node("Unsqueeze", ["half", "axis0"], ["half1"]),
        helper.make_node("Concat", ["lead", "minus1", "half1"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"]),
    ]
    initializers = {
        "start": i64(0),
        "end": i64(1),
        "two": np.array(2, np.int64),
        "four": np.array(4, np.int64),
        "two_": np.array(2, np.int64),
        "axis0": i64(0),
        "minus1": i64(-1),
    }
    m = model(nodes, {"x": (np.float32, ["n", 3, 8])}, ["y"], initializers)
    assert '-> R.Tensor(("n", 6, 4), dtype="float32")' in main_signature(from_onnx(m))
    x = RNG.standard_normal((2, 3, 8)).astype(np.float32)
    check(m, {"x": x})


def test_expand_and_constant_of_shape_and_range_on_symbolic_shapes() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node(
            "ConstantOfShape", ["shape"], ["ones"], value=helper.make_tensor("v", 1, [1], [1.0])
        ),
        helper.make_node("Gather", ["shape", "zero"], ["n"], axis=0),
        helper.make_node("Range", ["zero", "n", "one"], ["positions"]),
        helper.make_node("Expand", ["row", "shape"], ["rows"]),
    ]
    initializers = {
        "zero": np.array(0, np.int64),
        "one": np.array(1, np.int64),
        "row": np.ones((1, 4), np.float32),
    }
    m = model(nodes, {"x": (np.float32, ["n", 4])}, ["ones", "positions", "rows"], initializers)
    text = main_signature(from_onnx(m))
    assert (
        'R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n",), dtype="int64"), R.Tensor(("n", 4), dtype="float32")'
        in text
    )
    check(m, {"x": RNG.standard_normal((3, 4)).astype(np.float32)})


def test_dim_params_are_shared_and_unnamed_dims_fresh() -> None:
    nodes = [helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Relu", ["c"], ["r"])]
    inputs = {
        "a": (np.float32, ["batch", 4]),
        "b": (np.float32, ["batch", 4]),
        "c": (np.float32, [None, "?"]),
    }
    m = model(nodes, inputs, ["s", "r"])
    m.graph.input[2].type.tensor_type.shape.dim[1].dim_param = "?"
    signature = main_signature(from_onnx(m))
    assert 'a: R.Tensor(("batch", 4)' in signature and 'b: R.Tensor(("batch", 4)' in signature
    assert 'c: R.Tensor(("c_0", "c_1")' in signature
    assert 'R.Tensor(("batch", 4), dtype="float32"), R.Tensor(("c_0", "c_1")' in signature


def test_names_are_sanitised() -> None:
    nodes = [helper.make_node("Relu", ["input:0"], ["onnx::Relu_1"])]
    m = model(nodes, {"input:0": (np.float32, [2])}, ["onnx::Relu_1"])
    assert "def main(input_0: R.Tensor((2,)" in main_signature(from_onnx(m))


def weights_model() -> onnx.ModelProto:
    nodes = [
        helper.make_node("Mul", ["x", "w"], ["t"]),
        helper.make_node("Add", ["t", "onnx::b"], ["y"]),
    ]
    initializers = {
        "w": np.arange(6, dtype=np.float32).reshape(2, 3),
        "onnx::b": np.ones(3, np.float32),
    }
    return model(nodes, {"x": (np.float32, ["n", 2, 3])}, ["y"], initializers)


def test_initializers_as_constants_or_parameters() -> None:
    constants = print_tvmscript(from_onnx(weights_model()))
    assert 'def main(x: R.Tensor(("n", 2, 3), dtype="float32"))' in constants
    params = main_signature(from_onnx(weights_model(), params_as_inputs=True))
    assert (
        'x: R.Tensor(("n", 2, 3), dtype="float32"), w: R.Tensor((2, 3), dtype="float32"), onnx__b: R.Tensor((3,)'
        in params
    )


def test_params_out_and_relax_run_with_onnx_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "model.onnx"
    onnx.save(weights_model(), str(path))
    params = tmp_path / "params.npz"
    assert relax_opt([str(path), "--params-as-inputs", "--params-out", str(params)]) == 0
    weights = dict(np.load(params))
    assert sorted(weights) == ["onnx__b", "w"]
    np.testing.assert_array_equal(weights["w"], np.arange(6, dtype=np.float32).reshape(2, 3))
    x = RNG.standard_normal((4, 2, 3)).astype(np.float32)
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, x=x, **weights)
    capsys.readouterr()
    status = relax_run(
        [
            str(path),
            "--params-as-inputs",
            "--inputs",
            str(inputs),
            "--outputs",
            str(outputs),
            "--backend",
            "all",
        ]
    )
    assert status == 0, capsys.readouterr().err
    np.testing.assert_allclose(np.load(outputs)["out0"], x * weights["w"] + 1, rtol=1e-6)
    np.savez(inputs, x=x)
    assert relax_run([str(path), "--inputs", str(inputs), "--outputs", str(outputs)]) == 0
    np.testing.assert_allclose(np.load(outputs)["out0"], x * weights["w"] + 1, rtol=1e-6)


def test_unsupported_nodes_are_listed_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="first"),
        helper.make_node("Bernoulli", ["a"], ["b"], name="coin"),
        helper.make_node("Relu", ["b"], ["c"]),
        helper.make_node("Reshape", ["c", "x"], ["d"], name="bad_reshape"),
        helper.make_node("Custom", ["x"], ["t"], name="custom", domain="com.example"),
    ]
    outputs = {"d": (np.float32, [2, 2]), "t": (np.float32, [2, 2])}
    m = model(nodes, {"x": (np.float32, [2, 2])}, outputs)
    m.opset_import.append(helper.make_opsetid("com.example", 3))
    path = tmp_path / "model.onnx"
    onnx.save(m, str(path))
    capsys.readouterr()
    assert relax_opt([str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        f"{path}: node 'coin' (Bernoulli, opset 17): error: "
        "random numbers are not supported: Relax has no random number generator"
    )
    assert err[1] == (
        f"{path}: node 'custom' (Custom, opset 3): error: "
        "operator Custom of domain 'com.example' is not supported"
    )
    assert len(err) == 2  # the nodes after Bernoulli are not blamed for it


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not an ONNX model"),
        (b"\x08\x07\x12\xff\xff", "not an ONNX model"),
        (b"\x08\x07", "not an ONNX model (no graph or IR version)"),
    ],
)
def test_broken_files_are_clean_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, message: str
) -> None:
    path = tmp_path / "broken.onnx"
    path.write_bytes(data)
    assert relax_opt([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: error: {message}") and "Traceback" not in err


def test_truncated_models_never_give_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = heads_model().SerializeToString()
    path = tmp_path / "cut.onnx"
    for end in range(0, len(data), max(1, len(data) // 40)):
        path.write_bytes(data[:end])
        status = relax_opt([str(path)])
        err = capsys.readouterr().err
        assert status in (0, 1) and "Traceback" not in err
        assert status == 0 or err.startswith(f"{path}: ")


def test_opsets_outside_the_range_are_refused() -> None:
    x = np.ones(2, np.float32)
    with pytest.raises(
        DiagnosticError,
        match=r"opset 5 of the default ONNX domain is not supported \(supported: 7 to 28\)",
    ):
        from_onnx(single("Relu", {"x": x}, opset=5))


def test_wrong_and_missing_attributes_are_node_errors() -> None:
    x = np.ones((2, 2), np.float32)
    m = single("Transpose", {"x": x}, perm=[1, 0])
    m.graph.node[0].attribute[0].type = onnx.AttributeProto.FLOAT
    with pytest.raises(DiagnosticError, match="invalid ONNX model"):
        from_onnx(m)
    inputs = {"x": (np.float32, [2, 2]), "y": (np.float32, [2, 2])}
    m = model([helper.make_node("Concat", ["x", "y"], ["z"])], inputs, {"z": (np.float32, [4, 2])})
    with pytest.raises(DiagnosticError, match="invalid ONNX model: Required attribute 'axis'"):
        from_onnx(m)

    @converter("Scaled", domain="test.attributes")
    def scaled(ctx: NodeContext):
        return ctx.emit(
            "relax.multiply", ctx.input(0), ctx.const(ctx.attr("scale", 1.0), "float32")
        )

    node = helper.make_node("Scaled", ["x"], ["z"], domain="test.attributes", scale=2)
    m = model([node], {"x": (np.float32, [2, 2])}, {"z": (np.float32, [2, 2])})
    m.opset_import.append(helper.make_opsetid("test.attributes", 1))
    expected = r"model.onnx: node 'Scaled_0' \(Scaled, opset 1\): error: attribute 'scale' must be of type float, got int"
    with pytest.raises(DiagnosticError, match=expected):
        from_onnx(m)


def test_the_registry_picks_the_latest_version_not_above_the_opset() -> None:
    assert lookup("Clip", "", 10) is not lookup("Clip", "", 11)
    assert lookup("Clip", "", 13) is lookup("Clip", "", 11)
    assert lookup("Range", "", 10) is None
    assert lookup("Relu", "ai.onnx", 17) is lookup("Relu", "", 17)


def test_subgraphs_see_the_enclosing_names() -> None:
    """``import_subgraph`` converts a body in place, outer names visible (the
    mechanism ``If``/``Loop`` converters build on)."""
    body = helper.make_graph(
        [helper.make_node("Add", ["inner", "outer"], ["out"])],
        "body",
        [helper.make_tensor_value_info("inner", 1, [2])],
        [helper.make_tensor_value_info("out", 1, [2])],
    )

    @converter("ApplyBody", domain="test.subgraphs")
    def apply_body(ctx: NodeContext):
        return ctx.import_subgraph(ctx.attr("body"), [ctx.input(0)], "body")[0]

    nodes = [
        helper.make_node("Relu", ["x"], ["outer"]),
        helper.make_node("ApplyBody", ["x"], ["y"], domain="test.subgraphs", body=body),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", 1, [2])],
        [helper.make_tensor_value_info("y", 1, [2])],
    )
    m = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("test.subgraphs", 1)]
    )
    x = np.array([-1.0, 2.0], np.float32)
    from onnx_check import run

    assert np.array_equal(run(m, {"x": x})[0], x + np.maximum(x, 0))


def test_external_data_is_read_next_to_the_model(tmp_path: Path) -> None:
    m = weights_model()
    path = tmp_path / "model.onnx"
    onnx.save(m, str(path), save_as_external_data=True, location="weights.bin", size_threshold=0)
    assert (tmp_path / "weights.bin").exists() and path.stat().st_size < 400
    x = RNG.standard_normal((2, 2, 3)).astype(np.float32)
    want = x * np.arange(6, dtype=np.float32).reshape(2, 3) + 1
    for source in (path, path.read_bytes()):
        module = from_onnx(source, source_name=str(path))
        from relax_dialect.interpreter import run as interpret

        np.testing.assert_allclose(interpret(module, "main", x), want, rtol=1e-6)
    (tmp_path / "weights.bin").unlink()
    with pytest.raises(DiagnosticError, match="cannot load external data"):
        from_onnx(path)


def test_equal_and_where_on_dimensions_fold() -> None:
    """``Where(Equal(target, -1), 1, target)``, as exporters write it before an
    ``Expand``, folds on a symbolic target: a dimension is never -1."""
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Equal", ["shape", "minus1"], ["unknown"]),
        helper.make_node("Where", ["unknown", "ones", "shape"], ["target"]),
        helper.make_node("Expand", ["row", "target"], ["y"]),
    ]
    initializers = {"minus1": i64(-1), "ones": i64(1, 1), "row": np.ones((1, 4), np.float32)}
    m = model(nodes, {"x": (np.float32, ["n", 4])}, ["y"], initializers)
    assert '-> R.Tensor(("n", 4), dtype="float32")' in main_signature(from_onnx(m))
    check(m, {"x": RNG.standard_normal((3, 4)).astype(np.float32)})


def test_a_graph_without_outputs_is_refused() -> None:
    m = model([helper.make_node("Relu", ["x"], ["y"])], {"x": (np.float32, [2])}, [])
    with pytest.raises(DiagnosticError, match="the graph has no outputs"):
        from_onnx(m)


@pytest.mark.parametrize("op_type", ["Identity", "Max"])
def test_a_graph_that_only_forwards_its_inputs_has_no_dataflow_block(op_type: str) -> None:
    """No node binds a value (an ``Identity``, a one-input ``Max``): the empty dataflow
    block is dropped (normal form rule 4; found by the ONNX mutation campaign)."""
    m = model([helper.make_node(op_type, ["x"], ["y"])], {"x": (np.float32, ["n", 3])}, ["y"])
    module = from_onnx(m)
    assert check_well_formed(module) == []
    assert "R.dataflow" not in print_tvmscript(module)
    check(m, {"x": RNG.standard_normal((2, 3)).astype(np.float32)})
