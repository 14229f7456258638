"""RNN, GRU and LSTM unrolled, against onnxruntime: a symbolic batch, both
directions with ``sequence_lens``, initial states, peepholes, activations with
parameters, ``clip`` and ``linear_before_reset``."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_check import check, helper, model

from relax_dialect.frontends.onnx import from_onnx

RNG = np.random.default_rng(7)
STEPS, BATCH, INPUT, HIDDEN = 4, 3, 5, 6
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def weights(op: str, directions: int) -> dict[str, np.ndarray]:
    g = GATES[op]
    found = {
        "W": RNG.standard_normal((directions, g * HIDDEN, INPUT)),
        "R": RNG.standard_normal((directions, g * HIDDEN, HIDDEN)),
        "B": RNG.standard_normal((directions, 2 * g * HIDDEN)),
    }
    return {k: (v * 0.4).astype(np.float32) for k, v in found.items()}


def layer(op: str, directions: int, feeds: dict, extra_inputs: dict, **attrs) -> tuple:
    """A one-node model: ``x`` of symbolic batch, the weights as initializers, then
    ``extra_inputs`` (name → array, fed; ``""`` skips an input)."""
    initializers = weights(op, directions)
    names = ["x", "W", "R", "B", *extra_inputs]
    outputs = ["y", "y_h", "y_c"][: 3 if op == "LSTM" else 2]
    node = helper.make_node(op, names, outputs, hidden_size=HIDDEN, **attrs)
    inputs = {"x": (np.float32, [STEPS, "batch", INPUT])}
    for name, value in extra_inputs.items():
        if name:
            shape = ["batch" if size == BATCH else size for size in value.shape]
            inputs[name] = (value.dtype, shape)
    m = model([node], inputs, outputs, initializers)
    return m, {"x": feeds["x"], **{k: v for k, v in extra_inputs.items() if k}}


def x_data() -> np.ndarray:
    return RNG.standard_normal((STEPS, BATCH, INPUT)).astype(np.float32)


@pytest.mark.parametrize("op", sorted(GATES))
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_directions_with_sequence_lengths(op: str, direction: str) -> None:
    directions = 2 if direction == "bidirectional" else 1
    lengths = np.array([4, 1, 3], np.int32)
    m, feeds = layer(op, directions, {"x": x_data()}, {"lengths": lengths}, direction=direction)
    check(m, feeds)


def test_symbolic_batch_stays_in_the_types() -> None:
    m, _ = layer("GRU", 1, {"x": x_data()}, {})
    text = str(from_onnx(m))
    assert f"!relax.tensor<[{STEPS}, 1, batch, {HIDDEN}], f32>" in text


def test_lstm_initial_states_and_peepholes() -> None:
    h0 = RNG.standard_normal((1, BATCH, HIDDEN)).astype(np.float32)
    c0 = RNG.standard_normal((1, BATCH, HIDDEN)).astype(np.float32)
    p = RNG.standard_normal((1, 3 * HIDDEN)).astype(np.float32)
    extra = {"": None, "h0": h0, "c0": c0, "p": p}
    m, feeds = layer("LSTM", 1, {"x": x_data()}, extra)
    check(m, feeds)


def test_gru_linear_before_reset_and_activations_with_parameters() -> None:
    m, feeds = layer(
        "GRU",
        1,
        {"x": x_data()},
        {},
        linear_before_reset=1,
        activations=["HardSigmoid", "LeakyRelu"],
        activation_alpha=[0.3, 0.05],
        activation_beta=[0.4],
    )
    check(m, feeds)


def test_rnn_clip() -> None:
    m, feeds = layer("RNN", 1, {"x": x_data() * 4}, {}, clip=0.5, activations=["Relu"])
    check(m, feeds)
