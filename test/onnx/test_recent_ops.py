"""Operators of ONNX's recent opsets (CumProd, SwiGLU, CausalConvWithState...)
on symbolic shapes, against ONNX's reference evaluator (onnxruntime lags behind
these opsets) on the reference and lowered backends."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pytest
from onnx_check import check, helper, model, onnx

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.frontends.tvmscript.printer import print_tvmscript

pytestmark = pytest.mark.heavy

RNG = np.random.default_rng(7)


def floats(*shape: int, dtype: type = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def signature(m: onnx.ModelProto) -> str:
    text = print_tvmscript(from_onnx(m))
    return next(line for line in text.splitlines() if "def main" in line)


def one_node(
    op_type: str,
    inputs: Mapping[str, tuple[type, list[int | str]]],
    initializers: Mapping[str, np.ndarray] | None = None,
    opset: int = 28,
    outputs: int = 1,
    order: list[str] | None = None,
    **attrs: object,
) -> onnx.ModelProto:
    """One node whose inputs are ``order`` (default: the inputs, then the initializers)."""
    names = order or [*inputs, *(initializers or {})]
    out = [f"y{i}" for i in range(outputs)]
    node = helper.make_node(op_type, names, out, **attrs)
    return model([node], inputs, out, initializers, opset)


def check_by_reference(m: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> None:
    """The outputs equal those of ONNX's reference evaluator."""
    from onnx.reference import ReferenceEvaluator

    check(m, feeds, ReferenceEvaluator(m).run(None, dict(feeds)))


@pytest.mark.parametrize("exclusive", [0, 1])
@pytest.mark.parametrize("reverse", [0, 1])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_cumprod_keeps_the_batch(exclusive: int, reverse: int, dtype: type) -> None:
    m = one_node(
        "CumProd",
        {"x": (dtype, ["n", 5])},
        {"axis": np.array(-1, np.int64)},
        exclusive=exclusive,
        reverse=reverse,
    )
    kind = "float32" if dtype is np.float32 else "int32"
    assert f'-> R.Tensor(("n", 5), dtype="{kind}")' in signature(m)
    for batch in (1, 3):
        check_by_reference(m, {"x": (RNG.integers(-3, 4, (batch, 5))).astype(dtype)})


def test_swiglu_with_alpha() -> None:
    for alpha in (1.0, 1.702):
        m = one_node(
            "SwiGLU", {"a": (np.float32, ["n", 6]), "b": (np.float32, ["n", 6])}, alpha=alpha
        )
        assert '-> R.Tensor(("n", 6), dtype="float32")' in signature(m)
        check_by_reference(m, {"a": floats(3, 6), "b": floats(3, 6)})


@pytest.mark.parametrize("kernel", [1, 4])
@pytest.mark.parametrize("activation", ["none", "silu"])
def test_causal_conv_with_state_on_symbolic_batch_and_length(kernel: int, activation: str) -> None:
    m = one_node(
        "CausalConvWithState",
        {"x": (np.float32, ["n", 3, "t"]), "state": (np.float32, ["n", 3, kernel - 1])},
        {"w": floats(3, 1, kernel), "b": floats(3)},
        opset=27,
        outputs=2,
        order=["x", "w", "b", "state"],
        activation=activation,
    )
    assert (
        '-> R.Tuple(R.Tensor(("n", 3, "t"), dtype="float32"), '
        f'R.Tensor(("n", 3, {kernel - 1}), dtype="float32"))' in signature(m)
    )
    for batch, length in ((1, 2), (2, 7)):
        check_by_reference(
            m, {"x": floats(batch, 3, length), "state": floats(batch, 3, kernel - 1)}
        )


def test_causal_conv_with_state_in_half_precision_without_a_past() -> None:
    x, w = floats(2, 4, 8, dtype=np.float16), floats(4, 1, 3, dtype=np.float16)
    m = one_node(
        "CausalConvWithState",
        {"x": (np.float16, [2, 4, 8]), "w": (np.float16, [4, 1, 3])},
        opset=27,
        outputs=2,
        activation="silu",
    )
    check_by_reference(m, {"x": x, "w": w})


@pytest.mark.parametrize("rule", ["linear", "gated", "delta", "gated_delta"])
def test_linear_attention_with_grouped_heads_and_a_past_state(rule: str) -> None:
    query_heads, kv_heads, size = 4, 2, 3
    inputs: dict[str, tuple[type, list[int | str]]] = {
        "q": (np.float32, ["n", 3, query_heads * size]),
        "k": (np.float32, ["n", 3, kv_heads * size]),
        "v": (np.float32, ["n", 3, kv_heads * size]),
        "past": (np.float32, ["n", kv_heads, size, size]),
    }
    order = ["q", "k", "v", "past"]
    if rule in ("gated", "gated_delta"):
        inputs["decay"] = (np.float32, ["n", 3, kv_heads])
        order.append("decay")
    if rule in ("delta", "gated_delta"):
        inputs["beta"] = (np.float32, ["n", 3, 1])
        order += ["", "beta"] if len(order) == 4 else ["beta"]
    m = one_node(
        "LinearAttention",
        inputs,
        opset=27,
        outputs=2,
        order=order,
        update_rule=rule,
        q_num_heads=query_heads,
        kv_num_heads=kv_heads,
    )
    assert (
        '-> R.Tuple(R.Tensor(("n", 3, 12), dtype="float32"), '
        'R.Tensor(("n", 2, 3, 3), dtype="float32"))' in signature(m)
    )
    for batch in (1, 2):
        feeds = {name: floats(batch, *shape[1:]) for name, (_, shape) in inputs.items()}
        if "decay" in feeds:
            feeds["decay"] = -np.abs(feeds["decay"])
        if "beta" in feeds:
            feeds["beta"] = np.abs(feeds["beta"]) / 4
        check_by_reference(m, feeds)


def test_linear_attention_needs_a_known_sequence_length() -> None:
    m = one_node(
        "LinearAttention",
        {name: (np.float32, [1, "t", 4]) for name in "qkv"},
        opset=27,
        outputs=2,
        update_rule="linear",
        q_num_heads=2,
        kv_num_heads=2,
    )
    with pytest.raises(DiagnosticError, match="unrolling the recurrence"):
        from_onnx(m)


def test_flex_attention_with_grouped_heads_and_modifiers() -> None:
    """A soft cap on the scores (``score_mod``) and a square of the
    probabilities (``prob_mod``), on symbolic batch and sequence lengths."""
    capped = helper.make_graph(
        [
            helper.make_node("Div", ["s", "cap"], ["d"]),
            helper.make_node("Tanh", ["d"], ["t"]),
            helper.make_node("Mul", ["t", "cap"], ["out"]),
        ],
        "score_mod",
        [helper.make_tensor_value_info("s", onnx.TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("out", onnx.TensorProto.FLOAT, None)],
        [onnx.numpy_helper.from_array(np.array(2.0, np.float32), "cap")],
    )
    squared = helper.make_graph(
        [helper.make_node("Mul", ["p", "p"], ["out"])],
        "prob_mod",
        [helper.make_tensor_value_info("p", onnx.TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("out", onnx.TensorProto.FLOAT, None)],
    )
    node = helper.make_node(
        "FlexAttention",
        ["q", "k", "v"],
        ["y"],
        domain="ai.onnx.preview",
        score_mod=capped,
        prob_mod=squared,
        scale=0.5,
    )
    shapes = {"q": ["n", 4, "l", 3], "k": ["n", 2, "s", 3], "v": ["n", 2, "s", 5]}
    graph = helper.make_graph(
        [node],
        "flex",
        [helper.make_tensor_value_info(k, onnx.TensorProto.FLOAT, s) for k, s in shapes.items()],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["n", 4, "l", 5])],
    )
    m = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 23), helper.make_opsetid("ai.onnx.preview", 1)],
    )
    assert '-> R.Tensor(("n", 4, "l", 5), dtype="float32")' in signature(m)
    for batch, queries, keys in ((1, 1, 2), (2, 3, 4)):
        feeds = {
            "q": floats(batch, 4, queries, 3),
            "k": floats(batch, 2, keys, 3),
            "v": floats(batch, 2, keys, 5),
        }
        check_by_reference(m, feeds)


@pytest.mark.parametrize("mode", ["linear", "circular"])
def test_tensor_scatter_writes_each_batch_from_its_index(mode: str) -> None:
    m = one_node(
        "TensorScatter",
        {
            "cache": (np.float32, ["n", 2, "s", 3]),
            "update": (np.float32, ["n", 2, 2, 3]),
            "at": (np.int64, ["n"]),
        },
        opset=24,
        mode=mode,
    )
    assert '-> R.Tensor(("n", 2, "s", 3), dtype="float32")' in signature(m)
    for batch, length in ((1, 2), (3, 5)):
        at = RNG.integers(0, length - 1 if mode == "linear" else length, batch)
        feeds = {"cache": floats(batch, 2, length, 3), "update": floats(batch, 2, 2, 3)}
        check_by_reference(m, {**feeds, "at": at.astype(np.int64)})


@pytest.mark.parametrize("output_shape", [None, [4, 5]])
def test_max_unpool_inverts_max_pool(output_shape: list[int] | None) -> None:
    """A symbolic batch, or a known one padded at the end to ``output_shape``."""
    from onnx.reference import ReferenceEvaluator

    pool = one_node(
        "MaxPool", {"x": (np.float32, [2, 3, 4, 4])}, outputs=2, kernel_shape=[2, 2], strides=[2, 2]
    )
    batch: int | str = "n"
    initializers = {}
    if output_shape is not None:
        batch = 2
        initializers["shape"] = np.array([2, 3, *output_shape], np.int64)
    unpool = model(
        [
            helper.make_node(
                "MaxUnpool", ["y", "i", *initializers], ["z"], kernel_shape=[2, 2], strides=[2, 2]
            )
        ],
        {"y": (np.float32, [batch, 3, 2, 2]), "i": (np.int64, [batch, 3, 2, 2])},
        {"z": (np.float32, [batch, 3, None, None])},
        initializers,
        opset=22,
    )
    shape = '("n", 3, 4, 4)' if output_shape is None else "(2, 3, 4, 5)"
    assert f'-> R.Tensor({shape}, dtype="float32")' in signature(unpool)
    pooled, indices = ReferenceEvaluator(pool).run(None, {"x": floats(2, 3, 4, 4)})
    check_by_reference(unpool, {"y": pooled, "i": indices})


@pytest.mark.parametrize(
    ("image", "block", "attrs"),
    [
        ([5, 5], [1, 5], {}),
        ([5, 5], [2, 2], {"strides": [2, 2], "pads": [0, 1, 1, 0]}),
        ([6, 5], [2, 2], {"dilations": [2, 1], "pads": [1, 0, 1, 1]}),
        ([3, 4, 4], [2, 1, 2], {"strides": [1, 2, 1]}),
    ],
)
def test_col2im_sums_the_blocks_back(image: list[int], block: list[int], attrs: dict) -> None:
    from onnx.reference.ops.op_col2im import Col2Im

    count = len(image)
    pads = attrs.get("pads", [0] * 2 * count)
    strides, dilations = attrs.get("strides", [1] * count), attrs.get("dilations", [1] * count)
    blocks = int(
        np.prod(
            [
                (s + pads[i] + pads[count + i] - dilations[i] * (k - 1) - 1) // strides[i] + 1
                for i, (s, k) in enumerate(zip(image, block, strict=True))
            ]
        )
    )
    columns = 2 * int(np.prod(block))
    m = model(
        [helper.make_node("Col2Im", ["x", "image", "block"], ["y"], **attrs)],
        {"x": (np.float32, ["n", columns, blocks])},
        {"y": (np.float32, ["n", 2, *image])},
        {"image": np.array(image, np.int64), "block": np.array(block, np.int64)},
        opset=18,
    )
    assert f'-> R.Tensor(("n", 2, {", ".join(map(str, image))}), dtype="float32")' in signature(m)
    x = floats(3, columns, blocks)
    want = Col2Im.eval(x, np.array(image), np.array(block), **attrs)
    check(m, {"x": x}, [want])


def test_optional_element_of_a_tensor_or_of_nothing() -> None:
    x = floats(2, 3)
    check(one_node("OptionalGetElement", {"x": (np.float32, ["n", 3])}, opset=18), {"x": x}, [x])
    present = one_node("OptionalHasElement", {"x": (np.float32, ["n", 3])}, opset=18)
    check(present, {"x": x}, [np.array(True)])
    absent = model([helper.make_node("OptionalHasElement", [""], ["y"])], {}, ["y"], opset=18)
    check(absent, {}, [np.array(False)])
    wrapped = model(
        [helper.make_node("Optional", ["x"], ["y"])], {"x": (np.float32, [2])}, ["y"], opset=18
    )
    with pytest.raises(DiagnosticError, match="optionals are not supported"):
        from_onnx(wrapped)


def test_batch_normalization_in_training_mode_updates_the_moving_statistics() -> None:
    params = {name: floats(3) for name in ("scale", "bias", "mean")}
    params["var"] = np.abs(floats(3)) + 0.5
    m = model(
        [
            helper.make_node(
                "BatchNormalization",
                ["x", "scale", "bias", "mean", "var"],
                ["y", "moving_mean", "moving_var"],
                training_mode=1,
                momentum=0.8,
            )
        ],
        {"x": (np.float32, ["n", 3, 4])},
        {
            "y": (np.float32, ["n", 3, 4]),
            "moving_mean": (np.float32, [3]),
            "moving_var": (np.float32, [3]),
        },
        params,
        opset=15,
    )
    for batch in (1, 3):
        check_by_reference(m, {"x": floats(batch, 3, 4)})


@pytest.mark.parametrize("mode", ["TF", "IDF", "TFIDF"])
@pytest.mark.parametrize("weighted", [False, True])
def test_tfidf_vectorizer_against_onnxruntime(mode: str, weighted: bool) -> None:
    """Unigrams to trigrams with skips, on a symbolic batch (onnxruntime's outputs)."""
    attrs: dict[str, object] = {
        "mode": mode,
        "min_gram_length": 1,
        "max_gram_length": 3,
        "max_skip_count": 2,
        "ngram_counts": [0, 3, 7],
        "ngram_indexes": [4, 0, 1, 2, 3, 5, 6],
        "pool_int64s": [2, 3, 5, 2, 3, 3, 1, 2, 3, 5],
    }
    if weighted:
        attrs["weights"] = [0.5, 1.5, 2.0, 1.0, 3.0, 0.25, 4.0]
    m = one_node("TfIdfVectorizer", {"x": (np.int32, ["n", 9])}, opset=9, **attrs)
    assert '-> R.Tensor(("n", 7), dtype="float32")' in signature(m)
    for batch in (1, 3):
        check(m, {"x": RNG.integers(1, 6, (batch, 9)).astype(np.int32)})


@pytest.mark.parametrize(
    ("source", "target"),
    [(np.float32, np.int32), (np.int64, np.float64), (np.uint16, np.float16), (np.bool_, np.uint8)],
)
def test_bitcast_keeps_the_bits(source: type, target: type) -> None:
    code = helper.np_dtype_to_tensor_dtype(np.dtype(target))
    m = one_node("BitCast", {"x": (source, ["n", 3])}, opset=26, to=code)
    kind = np.dtype(target).name
    assert f'-> R.Tensor(("n", 3), dtype="{kind}")' in signature(m)
    x = RNG.integers(0, 2, (4, 3)) if source is np.bool_ else RNG.standard_normal((4, 3)) * 1e3
    data = x.astype(source)
    check(m, {"x": data}, [data.view(target)])


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [0, 1])
def test_grid_sample_of_volumes(mode: str, padding: str, align_corners: int) -> None:
    """Points beyond the volume (the grid spans [-1.6, 1.6]) on symbolic batch and
    output sizes."""
    m = one_node(
        "GridSample",
        {"x": (np.float32, ["n", 2, 3, 4, 5]), "grid": (np.float32, ["n", "d", 3, 2, 3])},
        opset=22,
        mode=mode,
        padding_mode=padding,
        align_corners=align_corners,
    )
    assert '-> R.Tensor(("n", 2, "d", 3, 2), dtype="float32")' in signature(m)
    for batch, depth in ((1, 1), (2, 3)):
        grid = RNG.uniform(-1.6, 1.6, (batch, depth, 3, 2, 3)).astype(np.float32)
        check_by_reference(m, {"x": floats(batch, 2, 3, 4, 5), "grid": grid})


@pytest.mark.parametrize(("bins", "length", "rate"), [(8, 16, 8192), (5, 31, 16000)])
def test_mel_weight_matrix_is_a_constant(bins: int, length: int, rate: int) -> None:
    names = ["bins", "length", "rate", "low", "high"]
    values = [
        np.array(bins, np.int64),
        np.array(length, np.int64),
        np.array(rate, np.int64),
        np.array(100.0, np.float32),
        np.array(rate / 2 - 100, np.float32),
    ]
    m = one_node("MelWeightMatrix", {}, dict(zip(names, values, strict=True)), opset=17)
    check_by_reference(m, {})
    run_time = model(
        [helper.make_node("MelWeightMatrix", names, ["y"])],
        {"bins": (np.int64, [])},
        {"y": (np.float32, [None, None])},
        dict(zip(names[1:], values[1:], strict=True)),
        opset=17,
    )
    with pytest.raises(DiagnosticError, match="num_mel_bins computed at run time is not supported"):
        from_onnx(run_time)


def test_det_of_batches_pivots_and_singular_matrices() -> None:
    m = one_node("Det", {"x": (np.float32, ["n", 2, 4, 4])}, opset=22)
    assert '-> R.Tensor(("n", 2), dtype="float32")' in signature(m)
    x = floats(3, 2, 4, 4)
    x[0, 0] = [[0, 1, 2, 3], [4, 5, 6, 7], [1, 0, 0, 0], [0, 0, 1, 5]]  # a zero pivot first
    x[0, 1, 3] = x[0, 1, 1] * 2  # singular
    x[1, 0, :, 0] = 0  # a zero column
    want = np.linalg.det(x).astype(np.float32)
    check(m, {"x": x}, [want])
    scalar = one_node("Det", {"x": (np.float64, [1, 1])}, opset=22)
    check(scalar, {"x": np.array([[-2.5]])}, [np.array(-2.5)])


@pytest.mark.parametrize(
    ("shape", "attrs"),
    [
        ([5, 6], {"kernel_shape": [2, 3], "strides": [2, 1], "pads": [1, 0, 1, 2]}),
        ([5, 6], {"kernel_shape": [2, 2], "dilations": [2, 1], "storage_order": 1}),
        ([7, 5], {"kernel_shape": [3, 2], "strides": [2, 2], "ceil_mode": 1}),
        ([9], {"kernel_shape": [3], "strides": [2], "pads": [1, 1]}),
        ([3, 4, 4], {"kernel_shape": [2, 2, 2], "strides": [1, 2, 2]}),
    ],
)
def test_max_pool_indices_against_onnxruntime(shape: list[int], attrs: dict) -> None:
    """Ties included (small integers), on a symbolic batch."""
    m = model(
        [helper.make_node("MaxPool", ["x"], ["y", "i"], **attrs)],
        {"x": (np.float32, ["n", 2, *shape])},
        ["y", "i"],
        opset=12,
    )
    for batch in (1, 2):
        check(m, {"x": RNG.integers(-3, 3, (batch, 2, *shape)).astype(np.float32)})


@pytest.mark.parametrize("windowed", [False, True])
@pytest.mark.parametrize("parts", [1, 2])
def test_stft_against_numpy(windowed: bool, parts: int) -> None:
    """Real (one-sided) and complex signals on a symbolic batch; a window, or a
    frame length."""
    initializers: dict[str, np.ndarray] = {"step": np.array(3, np.int64)}
    if windowed:
        initializers["window"] = np.hanning(8).astype(np.float32)
        order = ["x", "step", "window"]
    else:
        initializers["length"] = np.array(6, np.int64)
        order = ["x", "step", "", "length"]
    m = model(
        [helper.make_node("STFT", order, ["y"], onesided=int(parts == 1))],
        {"x": (np.float32, ["n", 20, parts])},
        ["y"],
        initializers,
        opset=17,
    )
    length = 8 if windowed else 6
    window = initializers.get("window", np.ones(length, np.float32))
    for batch in (1, 2):
        x = floats(batch, 20, parts)
        signal = x[..., 0] + 1j * x[..., 1] if parts == 2 else x[..., 0]
        frames = np.stack([signal[:, s : s + length] for s in range(0, 20 - length + 1, 3)], 1)
        spectrum = np.fft.fft(frames * window, axis=-1)[
            ..., : length // 2 + 1 if parts == 1 else length
        ]
        want = np.stack([spectrum.real, spectrum.imag], -1).astype(np.float32)
        check(m, {"x": x}, [want])
