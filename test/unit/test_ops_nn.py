"""The neural-network operators (relax.nn.*) in the interpreter, against
expectations written independently with NumPy (loops where that is clearer)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from operator_harness import function, param_type, run_strictly

from relax_dialect.interpreter import RelaxRuntimeError
from relax_dialect.numerics.arithmetic import erf
from relax_dialect.ops import nn as ops

SIZES = [1, 3, 6]


def call(op: str, *arrays: np.ndarray, dims: dict[str, str] | None = None) -> object:
    """Run ``op`` (text using ``%a``, ``%b``, ...) on ``arrays``, strictly; ``dims`` gives
    some parameters a symbolic shape (e.g. ``{"a": "[n, 4]"}``)."""
    names = "abcde"[: len(arrays)]
    dims = dims or {}
    params = ", ".join(
        f"%{name}: {param_type(array, dims.get(name))}"
        for name, array in zip(names, arrays, strict=True)
    )
    return run_strictly(function(params, f"%r = {op}"), *arrays)


def randn(*shape: int, dtype: str = "float32", seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed + sum(shape)).standard_normal(shape).astype(dtype)


def close(actual: object, expected: np.ndarray, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    assert isinstance(actual, np.ndarray)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


def test_every_operator_is_listed() -> None:
    assert len(ops.OPERATIONS) == 23


# --- activations ---------------------------------------------------------------------

SPECIAL = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, -30.0, 30.0, 1e-8], "float32")


def test_erf_matches_the_math_library() -> None:
    x = np.concatenate([np.linspace(-7, 7, 20001), np.geomspace(1e-300, 1e-2, 200), [-0.0]])
    expected = np.array([math.erf(v) for v in x])
    np.testing.assert_allclose(erf(x), expected, rtol=1e-14, atol=0)
    assert np.signbit(erf(np.array([-0.0])))[0]
    special = erf(np.array([np.nan, np.inf, -np.inf, 40.0]))
    np.testing.assert_array_equal(special, [np.nan, 1.0, -1.0, 1.0])


def reference_erf(x: np.ndarray) -> np.ndarray:
    return np.array([math.erf(v) for v in x.astype(np.float64).ravel()]).reshape(x.shape)


ACTIVATIONS = {
    "relax.nn.relu %a": lambda x: np.where(x > 0, x, 0),
    "relax.nn.gelu %a": lambda x: x * 0.5 * (1 + reference_erf(x / np.sqrt(2))),
    "relax.nn.gelu_tanh %a": lambda x: (
        0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    ),
    "relax.nn.selu %a": lambda x: (
        1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x))
    ),
    "relax.nn.silu %a": lambda x: x / (1 + np.exp(-x)),
    "relax.nn.leakyrelu %a": lambda x: np.where(x > 0, x, 0.01 * x),
    "relax.nn.leakyrelu %a {alpha = 0.25}": lambda x: np.where(x > 0, x, 0.25 * x),
    "relax.nn.softplus %a": lambda x: np.where(x > 20, x, np.log1p(np.exp(x))),
    "relax.nn.softplus %a {beta = 2.0, threshold = 3.0}": lambda x: np.where(
        2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2
    ),
}


@pytest.mark.parametrize("op", ACTIVATIONS)
@pytest.mark.parametrize("n", SIZES)
def test_activations_for_symbolic_sizes(op: str, n: int) -> None:
    x = randn(n, 4) * 3
    expected = ACTIVATIONS[op](x.astype(np.float64)).astype(np.float32)
    close(call(op, x, dims={"a": "[n, 4]"}), expected)


@pytest.mark.parametrize("op", ACTIVATIONS)
def test_activations_on_special_values(op: str) -> None:
    with np.errstate(all="ignore"):
        expected = ACTIVATIONS[op](SPECIAL.astype(np.float64)).astype(np.float32)
    if op == "relax.nn.relu %a":
        expected[0] = 0  # TVM's max(x, 0) selects 0 for NaN
    close(call(op, SPECIAL), expected)


def test_activations_in_half_and_double_precision() -> None:
    x16 = randn(5, 3, dtype="float16")
    expected16 = ACTIVATIONS["relax.nn.gelu %a"](x16.astype(np.float64)).astype("f2")
    # like TVM, the arithmetic around erf runs in float16
    close(call("relax.nn.gelu %a", x16), expected16, rtol=2e-3, atol=1e-3)
    x64 = randn(5, 3, dtype="float64")
    close(call("relax.nn.gelu %a", x64), ACTIVATIONS["relax.nn.gelu %a"](x64), rtol=1e-13)


def test_relu_on_integers() -> None:
    x = np.array([-3, 0, 7], "int32")
    close(call("relax.nn.relu %a", x), np.array([0, 0, 7], "int32"))


# --- softmax, log_softmax, prelu ----------------------------------------------------------


def reference_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    exp = np.exp(x - x.max(axis=axis, keepdims=True))
    return exp / exp.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("axis", [-1, 0, 1, -3])
@pytest.mark.parametrize("n", SIZES)
def test_softmax_along_any_axis(axis: int, n: int) -> None:
    x = randn(n, 3, 4) * 5
    attrs = f" {{axis = {axis}}}"
    expected = reference_softmax(x.astype(np.float64), axis)
    close(call(f"relax.nn.softmax %a{attrs}", x, dims={"a": "[n, 3, 4]"}), expected.astype("f4"))
    logs = call(f"relax.nn.log_softmax %a{attrs}", x, dims={"a": "[n, 3, 4]"})
    close(logs, np.log(expected).astype("f4"), atol=1e-5)


def test_softmax_is_stable_and_propagates_nan() -> None:
    x = np.array([[1000.0, 1000.0, -1000.0], [np.nan, 0, 1], [-np.inf, -np.inf, -np.inf]], "f4")
    result = call("relax.nn.softmax %a", x)
    close(result, np.array([[0.5, 0.5, 0], [np.nan] * 3, [np.nan] * 3], "f4"))
    logs = call("relax.nn.log_softmax %a", x)
    close(
        logs,
        np.array(
            [[-math.log(2), -math.log(2), -2000 - math.log(2)], [np.nan] * 3, [np.nan] * 3], "f4"
        ),
    )


def test_softmax_of_an_empty_axis() -> None:
    result = call("relax.nn.softmax %a {axis = 0}", np.zeros((0, 3), "f4"))
    close(result, np.zeros((0, 3), "f4"))


@pytest.mark.parametrize("axis", [1, -1])
def test_prelu_scales_negative_values_per_channel(axis: int) -> None:
    x = randn(2, 3, 4)
    alpha = randn(x.shape[axis], seed=1)
    shape = [1, 1, 1]
    shape[axis] = -1
    expected = np.where(x > 0, x, x * alpha.reshape(shape))
    close(call(f"relax.nn.prelu %a, %b {{axis = {axis}}}", x, alpha), expected)


def test_prelu_broadcasts_a_single_slope() -> None:
    x = randn(2, 3)
    close(call("relax.nn.prelu %a, %b", x, np.array([0.5], "f4")), np.where(x > 0, x, x / 2))


# --- pad, pixel_shuffle, batch_flatten, dropout -------------------------------------------

PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize("n", [3, 5])
def test_pad_modes_match_numpy(mode: str, n: int) -> None:
    x = randn(n, 4)
    op = f'relax.nn.pad %a {{pad_width = [2, 1, 0, 3], pad_mode = "{mode}"}}'
    result = call(op, x, dims={"a": "[n, 4]"})
    close(result, np.pad(x, [(2, 1), (0, 3)], mode=PAD_MODES[mode]))  # pyright: ignore


def test_pad_value_negative_widths_and_integers() -> None:
    x = np.arange(12, dtype="f4").reshape(3, 4)
    result = call("relax.nn.pad %a {pad_width = [1, -1, -2, 1], pad_value = 9.5}", x)
    expected = np.full((3, 3), 9.5, "f4")
    expected[1:, :2] = x[:2, 2:]
    close(result, expected)
    ints = call("relax.nn.pad %a {pad_width = [1, 1], pad_value = -2.7}", np.arange(2, dtype="i4"))
    close(ints, np.array([-2, 0, 1, -2], "i4"))  # the value is converted toward zero


def test_pad_constant_on_an_empty_axis() -> None:
    result = call("relax.nn.pad %a {pad_width = [1, 2]}", np.zeros(0, "f4"))
    close(result, np.zeros(3, "f4"))


def test_reflect_pad_wider_than_the_axis_fails() -> None:
    with pytest.raises(RelaxRuntimeError, match="reflect padding by 3"):
        call('relax.nn.pad %a {pad_width = [3, 0], pad_mode = "reflect"}', np.zeros(3, "f4"))


def reference_pixel_shuffle(x: np.ndarray, r: int) -> np.ndarray:
    *batch, channels, height, width = x.shape
    out = np.zeros((*batch, channels // (r * r), height * r, width * r), x.dtype)
    for c in range(out.shape[-3]):
        for i in range(r):
            for j in range(r):
                out[..., c, i::r, j::r] = x[..., c * r * r + i * r + j, :, :]
    return out


@pytest.mark.parametrize("n", SIZES)
def test_pixel_shuffle_for_symbolic_batches(n: int) -> None:
    x = randn(n, 8, 3, 2)
    result = call("relax.nn.pixel_shuffle %a {upscale_factor = 2}", x, dims={"a": "[n, 8, 3, 2]"})
    close(result, reference_pixel_shuffle(x, 2))


def test_pixel_shuffle_with_extra_leading_axes_and_leftover_channels() -> None:
    x = randn(2, 2, 9, 2, 2)
    close(call("relax.nn.pixel_shuffle %a {upscale_factor = 3}", x), reference_pixel_shuffle(x, 3))
    # symbolic channels: floor(c / r^2) output channels, as topi computes
    y = randn(1, 9, 2, 2)
    result = call("relax.nn.pixel_shuffle %a {upscale_factor = 2}", y, dims={"a": "[1, c, 2, 2]"})
    close(result, reference_pixel_shuffle(y[:, :8], 2))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_batch_flatten(n: int) -> None:
    x = randn(n, 3, 2, 2)
    result = call("relax.nn.batch_flatten %a", x, dims={"a": "[n, 3, 2, 2]"})
    close(result, x.reshape(n, 12))


def test_dropout_is_the_identity_with_a_full_mask() -> None:
    x = randn(3, 4)
    output, mask = call("relax.nn.dropout %a {rate = 0.9}", x)  # pyright: ignore
    close(output, x)
    close(mask, np.ones_like(x))


# --- normalisations ---------------------------------------------------------------------------


def reference_normalize(x: np.ndarray, axes: tuple[int, ...], epsilon: float) -> np.ndarray:
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + epsilon)


@pytest.mark.parametrize("n", SIZES)
def test_batch_norm_in_training_mode(n: int) -> None:
    x, gamma, beta = randn(n, 3, 5), randn(3, seed=1), randn(3, seed=2)
    mean, var = randn(3, seed=3), np.abs(randn(3, seed=4))
    op = "relax.nn.batch_norm %a, %b, %c, %d, %e {axis = 1, momentum = 0.25}"
    out, new_mean, new_var = call(op, x, gamma, beta, mean, var, dims={"a": "[n, 3, 5]"})  # pyright: ignore
    x64 = x.astype(np.float64)
    expected = reference_normalize(x64, (0, 2), 1e-5) * gamma[:, None] + beta[:, None]
    close(out, expected.astype("f4"), atol=1e-5)
    close(new_mean, (0.75 * mean + 0.25 * x64.mean(axis=(0, 2))).astype("f4"))
    close(new_var, (0.75 * var + 0.25 * x64.var(axis=(0, 2))).astype("f4"), atol=1e-5)


def test_batch_norm_in_inference_mode() -> None:
    x, gamma, beta = randn(2, 3, 4), randn(4, seed=1), randn(4, seed=2)
    mean, var = randn(4, seed=3), np.abs(randn(4, seed=4))
    op = "relax.nn.batch_norm %a, %b, %c, %d, %e {axis = -1, epsilon = 0.01, training = false}"
    out, new_mean, new_var = call(op, x, gamma, beta, mean, var)  # pyright: ignore
    close(out, (x - mean) / np.sqrt(var + 0.01) * gamma + beta)
    close(new_mean, mean)
    close(new_var, var)
    unscaled = op.replace("training", "center = false, scale = false, training")
    out, _, _ = call(unscaled, x, gamma, beta, mean, var)  # pyright: ignore
    close(out, (x - mean) / np.sqrt(var + 0.01))


@pytest.mark.parametrize("axes", [[-1], [1, 2]])
@pytest.mark.parametrize("n", SIZES)
def test_layer_norm(axes: list[int], n: int) -> None:
    x = randn(n, 3, 4) * 4 + 2
    params = (3, 4) if len(axes) == 2 else (4,)
    gamma, beta = randn(*params, seed=1), randn(*params, seed=2)
    op = f"relax.nn.layer_norm %a, %b, %c {{axes = {axes}}}"
    result = call(op, x, gamma, beta, dims={"a": "[n, 3, 4]"})
    reduce = tuple(a % 3 for a in axes)
    expected = reference_normalize(x.astype(np.float64), reduce, 1e-5) * gamma + beta
    close(result, expected.astype("f4"), atol=1e-5)


def test_layer_norm_without_center_and_scale_and_in_half_precision() -> None:
    x = randn(4, 6, dtype="float16")
    gamma, beta = randn(6, dtype="float16", seed=1), randn(6, dtype="float16", seed=2)
    op = "relax.nn.layer_norm %a, %b, %c {axes = [1], center = false, scale = false}"
    expected = reference_normalize(x.astype(np.float64), (1,), 1e-5)
    close(call(op, x, gamma, beta), expected.astype("f2"), rtol=2e-3, atol=2e-3)
    op = "relax.nn.layer_norm %a, %b, %c {axes = [1]}"
    close(call(op, x, gamma, beta), (expected * gamma + beta).astype("f2"), rtol=5e-3, atol=5e-3)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("n", SIZES)
def test_rms_norm(dtype: str, n: int) -> None:
    x, weight = randn(n, 5, dtype=dtype), randn(5, dtype=dtype, seed=1)
    x64 = x.astype(np.float64)
    expected = x64 / np.sqrt(np.mean(x64 * x64, axis=-1, keepdims=True) + 1e-5) * weight
    tolerance = 3e-3 if dtype == "float16" else 1e-5
    result = call("relax.nn.rms_norm %a, %b", x, weight, dims={"a": "[n, 5]"})
    close(result, expected.astype(dtype), rtol=tolerance, atol=tolerance)


def test_rms_norm_over_several_axes() -> None:
    x, weight = randn(2, 3, 4), randn(2, 4, seed=1)
    op = "relax.nn.rms_norm %a, %b {axes = [0, 2], epsilon = 0.5}"
    expected = x / np.sqrt(np.mean(x * x, axis=(0, 2), keepdims=True) + 0.5) * weight[:, None, :]
    close(call(op, x, weight), expected)


@pytest.mark.parametrize("n", SIZES)
def test_group_norm(n: int) -> None:
    x, gamma, beta = randn(n, 6, 2, 3) * 3, randn(6, seed=1), randn(6, seed=2)
    op = "relax.nn.group_norm %a, %b, %c {num_groups = 3, channel_axis = 1, axes = [2, 3]}"
    result = call(op, x, gamma, beta, dims={"a": "[n, 6, 2, 3]"})
    expected = np.empty_like(x)
    for group in range(3):
        channels = slice(2 * group, 2 * group + 2)
        expected[:, channels] = reference_normalize(x[:, channels], (1, 2, 3), 1e-5)
    close(result, expected * gamma[:, None, None] + beta[:, None, None], atol=1e-5)


def test_group_norm_with_the_channels_last() -> None:
    x, gamma, beta = randn(2, 5, 4), randn(4, seed=1), randn(4, seed=2)
    op = "relax.nn.group_norm %a, %b, %c {num_groups = 2, channel_axis = -1, axes = [1], center = false}"
    expected = np.concatenate(
        [
            reference_normalize(x[..., :2], (1, 2), 1e-5),
            reference_normalize(x[..., 2:], (1, 2), 1e-5),
        ],
        axis=-1,
    )
    close(call(op, x, gamma, beta), expected * gamma, atol=1e-5)


@pytest.mark.parametrize("n", SIZES)
def test_instance_norm(n: int) -> None:
    x, gamma, beta = randn(n, 3, 4, 2), randn(3, seed=1), randn(3, seed=2)
    op = "relax.nn.instance_norm %a, %b, %c {channel_axis = 1, axes = [2, 3], epsilon = 0.001}"
    result = call(op, x, gamma, beta, dims={"a": "[n, 3, 4, 2]"})
    expected = reference_normalize(x, (2, 3), 1e-3) * gamma[:, None, None] + beta[:, None, None]
    close(result, expected, atol=1e-5)


# --- losses ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_cross_entropy_divides_by_the_batch_size(n: int) -> None:
    x, y = randn(n, 4), randn(n, 4, seed=1)
    result = call(
        "relax.nn.cross_entropy_with_logits %a, %b", x, y, dims={"a": "[n, 4]", "b": "[n, 4]"}
    )
    close(result, np.array(-np.sum(x * y) / n, "f4"))


def test_cross_entropy_of_vectors_and_integers() -> None:
    x, y = randn(5), randn(5, seed=1)
    close(call("relax.nn.cross_entropy_with_logits %a, %b", x, y), np.array(-np.sum(x * y), "f4"))
    # integer division truncates toward zero: -7 / 2 is -3
    ints = call(
        "relax.nn.cross_entropy_with_logits %a, %b",
        np.array([[3, 4], [0, 0]], "i4"),
        np.array([[1, 1], [5, 6]], "i4"),
    )
    close(ints, np.array(-3, "i4"))


def reference_nll(
    predictions: np.ndarray, targets: np.ndarray, weights: np.ndarray, ignore: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per-element losses and the weights used, with explicit loops."""
    losses = np.zeros(targets.shape, predictions.dtype)
    used = np.zeros(targets.shape, predictions.dtype)
    for index in np.ndindex(*targets.shape):
        target = targets[index]
        if target != ignore:
            pick = (index[0], target, *index[1:]) if predictions.ndim > 1 else (target,)
            losses[index] = -predictions[pick] * weights[target]
            used[index] = weights[target]
    return losses, used


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("n", SIZES)
def test_nll_loss_with_weights_and_extra_dimensions(reduction: str, n: int) -> None:
    predictions, weights = randn(n, 4, 3), np.abs(randn(4, seed=1))
    targets = np.random.default_rng(n).integers(0, 4, (n, 3))
    targets[0, 0] = -1
    op = f'relax.nn.nll_loss %a, %b, %c {{reduction = "{reduction}", ignore_index = -1}}'
    result = call(op, predictions, targets, weights, dims={"a": "[n, 4, 3]", "b": "[n, 3]"})
    losses, used = reference_nll(predictions, targets, weights, -1)
    expected = {"none": losses, "sum": losses.sum(), "mean": losses.sum() / used.sum()}
    close(result, np.asarray(expected[reduction], "f4"))


def test_nll_loss_defaults_and_a_single_prediction() -> None:
    predictions, targets = randn(3, 5), np.array([4, -100, 0])
    losses, _ = reference_nll(predictions, targets, np.ones(5, "f4"), -100)
    close(call("relax.nn.nll_loss %a, %b", predictions, targets), np.array(losses.sum() / 2, "f4"))
    vector, weights = randn(5), np.full(5, 2.0, "f4")
    result = call('relax.nn.nll_loss %a, %b, %c {reduction = "none"}', vector, np.array(3), weights)
    close(result, np.array(-2 * vector[3], "f4"))


def test_nll_loss_rejects_targets_out_of_range() -> None:
    with pytest.raises(RelaxRuntimeError, match="target 5 is out of range for 5 classes"):
        call("relax.nn.nll_loss %a, %b", randn(2, 5), np.array([0, 5]))


# --- attention ---------------------------------------------------------------------------------


def reference_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    bias: np.ndarray | None = None,
    scale: float | None = None,
    offset: int | None = None,
) -> np.ndarray:
    """Attention per batch and head with explicit loops; ``offset`` keeps keys
    ``j <= i + offset`` (no mask when None)."""
    batch, seq, heads, dim = q.shape
    kv_heads, seq_kv = k.shape[2], k.shape[1]
    scale = 1 / math.sqrt(dim) if scale is None else scale
    full_bias = (
        np.zeros((batch, heads, seq, seq_kv))
        if bias is None
        else np.broadcast_to(bias, (batch, heads, seq, seq_kv))
    )
    out = np.zeros((batch, seq, heads, v.shape[3]))
    for b in range(batch):
        for h in range(heads):
            kv = h // (heads // kv_heads)
            scores = q[b, :, h] @ k[b, :, kv].T * scale + full_bias[b, h]
            if offset is not None:
                scores = np.where(np.tril(np.ones_like(scores), offset) > 0, scores, -np.inf)
            weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
            out[b, :, h] = weights / weights.sum(axis=-1, keepdims=True) @ v[b, :, kv]
    return out


@pytest.mark.parametrize("seq", [1, 3, 6])
def test_attention_for_symbolic_sequence_lengths(seq: int) -> None:
    q, k, v = randn(2, seq, 4, 8), randn(2, 5, 4, 8, seed=1), randn(2, 5, 4, 6, seed=2)
    dims = {"a": "[2, s, 4, 8]", "b": "[2, t, 4, 8]", "c": "[2, t, 4, 6]"}
    result = call("relax.nn.attention %a, %b, %c", q, k, v, dims=dims)
    close(result, reference_attention(q, k, v).astype("f4"), atol=1e-5)


@pytest.mark.parametrize("mask", ["TopLeft", "BottomRight"])
@pytest.mark.parametrize(("seq", "seq_kv"), [(3, 5), (5, 3), (4, 4)])
def test_attention_causal_masks(mask: str, seq: int, seq_kv: int) -> None:
    q, k, v = randn(1, seq, 2, 4), randn(1, seq_kv, 2, 4, seed=1), randn(1, seq_kv, 2, 3, seed=2)
    result = call(f'relax.nn.attention %a, %b, %c {{causal_mask = "{mask}", scale = 0.5}}', q, k, v)
    offset = 0 if mask == "TopLeft" else abs(seq - seq_kv)
    close(result, reference_attention(q, k, v, scale=0.5, offset=offset).astype("f4"), atol=1e-5)


def test_attention_with_bias_and_grouped_heads() -> None:
    q, k, v = randn(2, 3, 4, 8), randn(2, 5, 2, 8, seed=1), randn(2, 5, 2, 6, seed=2)
    bias = randn(1, 4, 1, 5, seed=3)
    result = call('relax.nn.attention_bias %a, %b, %c, %d {causal_mask = "TopLeft"}', q, k, v, bias)
    close(result, reference_attention(q, k, v, bias=bias, offset=0).astype("f4"), atol=1e-5)


def test_sliding_window_attention_is_not_supported() -> None:
    q = randn(1, 2, 1, 4)
    with pytest.raises(RelaxRuntimeError, match="window_size"):
        call("relax.nn.attention %a, %a, %a {window_size = 2}", q)
