"""Neural-network and math converters on symbolic shapes: the result types keep
the symbolic dimensions, the outputs match onnxruntime at two sizes on the
reference and lowered backends, and what needs a known size or value is a
located refusal."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pytest
from onnx_check import check, helper, model, onnx

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.frontends.tvmscript.printer import print_tvmscript

RNG = np.random.default_rng(5)


def floats(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def signature(m: onnx.ModelProto) -> str:
    text = print_tvmscript(from_onnx(m))
    return next(line for line in text.splitlines() if "def main" in line)


def node(op_type: str, inputs: list[str], outputs: int = 1, **attrs: object) -> onnx.NodeProto:
    return helper.make_node(op_type, inputs, [f"y{i}" for i in range(outputs)], **attrs)


def one_node(
    op_type: str,
    inputs: Mapping[str, tuple[type, list[int | str]]],
    initializers: Mapping[str, np.ndarray] | None = None,
    opset: int = 17,
    outputs: int = 1,
    **attrs: object,
) -> onnx.ModelProto:
    names = [*inputs, *(initializers or {})]
    return model(
        [node(op_type, names, outputs, **attrs)],
        inputs,
        [f"y{i}" for i in range(outputs)],
        initializers,
        opset,
    )


def refusal(m: onnx.ModelProto) -> str:
    with pytest.raises(DiagnosticError) as raised:
        from_onnx(m)
    return raised.value.diagnostics[0].message


def test_conv_same_padding_and_bias_keep_the_batch() -> None:
    m = one_node(
        "Conv",
        {"x": (np.float32, ["n", 3, 7, 7])},
        {"w": floats(4, 3, 3, 3), "b": floats(4)},
        auto_pad="SAME_UPPER",
    )
    assert '-> R.Tensor(("n", 4, 7, 7), dtype="float32")' in signature(m)
    for batch in (1, 3):
        check(m, {"x": floats(batch, 3, 7, 7)})


def test_strided_same_padding_on_a_symbolic_size_is_refused() -> None:
    m = one_node(
        "Conv",
        {"x": (np.float32, [1, 3, "h", "w"])},
        {"w": floats(4, 3, 3, 3)},
        auto_pad="SAME_LOWER",
        strides=[2, 2],
    )
    assert "is not supported" in refusal(m)


def test_conv_transpose_output_shape_and_groups() -> None:
    m = one_node(
        "ConvTranspose",
        {"x": (np.float32, ["n", 4, 3, 3])},
        {"w": floats(4, 2, 3, 3)},
        group=2,
        strides=[2, 2],
        output_shape=[8, 7],
    )
    assert '-> R.Tensor(("n", 4, 8, 7), dtype="float32")' in signature(m)
    check(m, {"x": floats(2, 4, 3, 3)})


@pytest.mark.parametrize("op_type", ["MaxPool", "AveragePool", "LpPool"])
def test_pooling_with_ceil_mode_and_padding(op_type: str) -> None:
    attrs: dict[str, object] = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 0, 0]}
    if op_type != "LpPool":
        attrs["ceil_mode"] = 1
    m = one_node(op_type, {"x": (np.float32, ["n", 2, 6, 7])}, opset=18, **attrs)
    assert '"n", 2, ' in signature(m)
    for batch in (1, 2):
        check(m, {"x": floats(batch, 2, 6, 7)})


def test_gemm_transposes_and_scales_on_a_symbolic_batch() -> None:
    m = one_node(
        "Gemm",
        {"a": (np.float32, [4, "m"])},
        {"b": floats(5, 4), "c": floats(5)},
        transA=1,
        transB=1,
        alpha=0.5,
        beta=2.0,
    )
    assert '-> R.Tensor(("m", 5), dtype="float32")' in signature(m)
    check(m, {"a": floats(4, 3)})


@pytest.mark.parametrize("op_type", ["Softmax", "LogSoftmax", "Hardmax"])
def test_softmax_before_opset_13_flattens_the_trailing_axes(op_type: str) -> None:
    """Hardmax reads the flattened input's shape: it must be a binding, not a nested call
    (a traceback the ONNX mutation campaign found)."""
    m = one_node(op_type, {"x": (np.float32, ["n", 3, 4])}, opset=11, axis=1)
    assert '-> R.Tensor(("n", 3, 4), dtype="float32")' in signature(m)
    check(m, {"x": floats(2, 3, 4)})


def test_hardmax_along_a_symbolic_axis() -> None:
    m = one_node("Hardmax", {"x": (np.float32, [2, "k"])}, opset=13)
    x = np.array([[1, 3, 3], [2, 0, 1]], np.float32)
    check(m, {"x": x})


@pytest.mark.parametrize(("op_type", "opset"), [("ReduceLogSumExp", 18), ("ReduceSum", 13)])
def test_reductions_with_axes_inputs(op_type: str, opset: int) -> None:
    m = one_node(
        op_type,
        {"x": (np.float32, ["n", 3, "k"])},
        {"axes": np.array([-1], np.int64)},
        opset=opset,
        keepdims=0,
    )
    assert '-> R.Tensor(("n", 3), dtype="float32")' in signature(m)
    check(m, {"x": floats(2, 3, 5)})


def test_reduction_axes_known_only_at_run_time_are_refused() -> None:
    inputs = {"x": (np.float32, [2, 3]), "axes": (np.int64, [1])}
    m = model([node("ReduceMean", ["x", "axes"])], inputs, {"y0": (np.float32, [2, 1])}, opset=18)
    assert "computed at run time is not supported" in refusal(m)


def test_layer_normalization_statistics_on_symbolic_batch_and_sequence() -> None:
    m = one_node(
        "LayerNormalization",
        {"x": (np.float32, ["batch", "seq", 8])},
        {"scale": floats(8), "bias": floats(8)},
        outputs=3,
    )
    text = signature(m)
    assert 'R.Tensor(("batch", "seq", 8), dtype="float32")' in text
    assert 'R.Tensor(("batch", "seq", 1), dtype="float32")' in text
    check(m, {"x": floats(2, 5, 8)})


def test_attention_with_a_cache_of_symbolic_length() -> None:
    """GPT-style decoding: 3-D inputs split into grouped heads, a key/value cache
    of symbolic length, a causal mask offset by the cache."""
    nodes = [
        helper.make_node(
            "Attention",
            ["q", "k", "v", "", "past_k", "past_v"],
            ["y", "present_k", "present_v"],
            q_num_heads=4,
            kv_num_heads=2,
            is_causal=1,
        )
    ]
    inputs = {
        "q": (np.float32, ["b", "s", 16]),
        "k": (np.float32, ["b", "s", 8]),
        "v": (np.float32, ["b", "s", 8]),
        "past_k": (np.float32, ["b", 2, "past", 4]),
        "past_v": (np.float32, ["b", 2, "past", 4]),
    }
    outputs = {
        "y": (np.float32, ["b", "s", 16]),
        "present_k": (np.float32, ["b", 2, None, 4]),
        "present_v": (np.float32, ["b", 2, None, 4]),
    }
    m = model(nodes, inputs, outputs, opset=23)
    text = signature(m)
    assert 'R.Tensor(("b", "s", 16), dtype="float32")' in text
    assert 'R.Tensor(("b", 2, "past + s", 4), dtype="float32")' in text
    feeds = {
        "q": floats(2, 3, 16),
        "k": floats(2, 3, 8),
        "v": floats(2, 3, 8),
        "past_k": floats(2, 2, 5, 4),
        "past_v": floats(2, 2, 5, 4),
    }
    check(m, feeds)


def test_resize_keeps_the_axes_it_does_not_resize_symbolic() -> None:
    m = one_node(
        "Resize",
        {"x": (np.float32, ["n", 2, 4, 4])},
        {"roi": np.zeros(0, np.float32), "scales": np.array([1, 1, 0.75, 1.5], np.float32)},
        opset=19,
        mode="cubic",
    )
    assert '-> R.Tensor(("n", 2, 3, 6), dtype="float32")' in signature(m)
    for batch in (1, 2):
        check(m, {"x": floats(batch, 2, 4, 4)})


def test_trilu_with_a_run_time_diagonal() -> None:
    m = one_node("Trilu", {"x": (np.float32, ["r", "c"]), "k": (np.int64, [])}, opset=14, upper=0)
    for k in (-1, 0, 2):
        check(m, {"x": floats(3, 4), "k": np.array(k, np.int64)})


def test_one_hot_with_a_run_time_depth_has_a_symbolic_length() -> None:
    m = one_node(
        "OneHot",
        {"i": (np.int64, ["n"]), "depth": (np.int64, [])},
        {"values": np.array([0.5, 2.0], np.float32)},
        opset=11,
        axis=0,
    )
    text = print_tvmscript(from_onnx(m))
    assert "R.Shape([depth]) = R.match_cast(" in text
    assert 'y0: R.Tensor((depth, n), dtype="float32")' in text
    feeds = {"i": np.array([0, -1, 2, 7], np.int64), "depth": np.array(4, np.int64)}
    check(m, feeds)


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge", "wrap"])
def test_pad_modes_on_a_symbolic_batch(mode: str) -> None:
    m = one_node(
        "Pad",
        {"x": (np.float32, ["n", 3, 4])},
        {"pads": np.array([0, 1, 2, 0, 2, 1], np.int64)},
        opset=19,
        mode=mode,
    )
    assert '-> R.Tensor(("n", 6, 7), dtype="float32")' in signature(m)
    check(m, {"x": floats(2, 3, 4)})


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space_and_back(mode: str) -> None:
    there = one_node("DepthToSpace", {"x": (np.float32, ["n", 8, 2, 3])}, blocksize=2, mode=mode)
    assert '-> R.Tensor(("n", 2, 4, 6), dtype="float32")' in signature(there)
    check(there, {"x": floats(2, 8, 2, 3)})
    back = one_node("SpaceToDepth", {"x": (np.float32, ["n", 2, 4, 6])}, blocksize=2)
    check(back, {"x": floats(2, 2, 4, 6)})


def test_activations_and_cumsum_reverse_exclusive() -> None:
    x = floats(2, 5)
    for op_type, attrs in [
        ("Celu", {"alpha": 2.0}),
        ("Selu", {}),
        ("HardSwish", {}),
        ("Shrink", {"lambd": 0.3, "bias": 0.1}),
        ("ThresholdedRelu", {"alpha": 0.2}),
        ("Mish", {}),
    ]:
        check(one_node(op_type, {"x": (np.float32, ["n", 5])}, opset=18, **attrs), {"x": x})
    cumsum = one_node(
        "CumSum",
        {"x": (np.float32, ["n", 5])},
        {"axis": np.array(1, np.int64)},
        exclusive=1,
        reverse=1,
    )
    check(cumsum, {"x": x})


def test_top_k_with_a_constant_or_a_run_time_k() -> None:
    x = np.array([[3, 1, 3, 2], [0, 5, 5, 1]], np.float32)
    outputs = {"y0": (np.float32, ["n", None]), "y1": (np.int64, ["n", None])}
    constant = model(
        [node("TopK", ["x", "k"], 2, largest=0)],
        {"x": (np.float32, ["n", 4])},
        outputs,
        {"k": np.array([3], np.int64)},
        opset=11,
    )
    assert '"n", 3' in signature(constant)
    check(constant, {"x": x})
    run_time = model(
        [node("TopK", ["x", "k"], 2)],
        {"x": (np.float32, ["n", 4]), "k": (np.int64, [1])},
        outputs,
        opset=11,
    )
    check(run_time, {"x": x, "k": np.array([2], np.int64)})


@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_softmax_cross_entropy_with_weights_and_an_ignored_class(reduction: str) -> None:
    m = model(
        [node("SoftmaxCrossEntropyLoss", ["x", "t", "w"], 2, reduction=reduction, ignore_index=1)],
        {"x": (np.float32, ["n", 3, 2]), "t": (np.int64, ["n", 2])},
        ["y0", "y1"],
        {"w": np.array([0.5, 1.0, 2.0], np.float32)},
        opset=13,
    )
    text = signature(m)
    assert 'R.Tensor(("n", 3, 2), dtype="float32")' in text
    targets = np.array([[0, 1], [2, 2], [1, 0]], np.int64)
    check(m, {"x": floats(3, 3, 2), "t": targets})
