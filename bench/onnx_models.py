"""Real architectures as ONNX models, built offline with ``onnx.helper`` and random weights.

    python bench/onnx_models.py ARCHITECTURE [--full] [-o MODEL.onnx] [--inputs INPUTS.npz]

Each model has a symbolic batch dimension ``batch`` (the transformers a symbolic ``seq``
too, GPT-2 a KV cache of symbolic length ``past``) and is written as exporters
write it: shapes computed with Shape → Gather → Concat → Reshape, constants as
initializers, opsets from 11 to 20 so that the attribute and input forms of Clip,
Squeeze, Split and ReduceMean all appear. The sizes are keyword arguments of each
builder; ``SMALL`` (what the tests run) and ``FULL`` (the published models' sizes)
are given per architecture, with the dimensions to run them at.

========== =====================================================================
resnet18   ResNet-18: NCHW, BatchNormalization, basic blocks, 224×224 (opset 13)
mobilenet  MobileNetV2: inverted residuals, depthwise convolutions, Clip as ReLU6
           (opset 11: Clip's bounds are inputs)
squeezenet SqueezeNet 1.1: Fire modules joined by Concat (opset 12)
bert       a BERT-base encoder layer: symbolic batch and sequence, attention mask,
           heads by Reshape/Transpose, Erf GELU, LayerNormalization (opset 17)
bert_ln    the same with the layer norm decomposed (ReduceMean with axes as an
           input, opset 18), as older exporters write it
gpt2       a GPT-2 decoder block: KV cache of symbolic length, causal mask sliced
           from a constant lower triangle, tanh GELU, decomposed layer norm (opset 14)
vit        ViT: patch embedding, class token, position embedding, one encoder
           layer with the Gelu operator, classifier head (opset 20)
lstm       a bidirectional LSTM then an LSTM then a classifier, over a fixed number of
           time steps (opset 14)
========== =====================================================================
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

Dim = int | str | None
"""A dimension: its size, a symbolic name, or None (unknown)."""


class Graph:
    """An ONNX graph being built: its nodes, random weights and unique value names."""

    def __init__(self, name: str, seed: int = 0):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self._counts: Counter[str] = Counter()

    def fresh(self, prefix: str) -> str:
        self._counts[prefix] += 1
        return f"{prefix}_{self._counts[prefix]}"

    def input(self, name: str, shape: Sequence[Dim], elem_type: int = TensorProto.FLOAT) -> str:
        self.inputs.append(helper.make_tensor_value_info(name, elem_type, list(shape)))
        return name

    def output(self, value: str, name: str, shape: Sequence[Dim]) -> None:
        """Make ``value`` the graph output ``name`` (through an Identity)."""
        self.op("Identity", value, result=name)
        self.outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape)))

    def constant(self, prefix: str, array: np.ndarray) -> str:
        """An initializer holding ``array``."""
        name = self.fresh(prefix)
        self.initializers.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def ints(self, *values: int) -> str:
        return self.constant("ints", np.array(values, dtype=np.int64))

    def scalar(self, value: float) -> str:
        return self.constant("scalar", np.array(value, dtype=np.float32))

    def weight(self, prefix: str, shape: Sequence[int], fan_in: int | None = None) -> str:
        """Random normal weights scaled as He initialisation does (``sqrt(2 / fan_in)``;
        the fan-in defaults to the product of the trailing dimensions)."""
        fan_in = fan_in or math.prod(shape[1:]) or 1
        data = self.rng.standard_normal(shape) * math.sqrt(2.0 / fan_in)
        return self.constant(prefix, data.astype(np.float32))

    def uniform(self, prefix: str, shape: Sequence[int], low: float, high: float) -> str:
        return self.constant(prefix, self.rng.uniform(low, high, shape).astype(np.float32))

    def op(
        self,
        op_type: str,
        *inputs: str,
        outputs: int = 1,
        result: str | None = None,
        **attributes: Any,
    ) -> Any:
        """Add a node; its output name, or the list of them when ``outputs > 1``."""
        name = self.fresh(op_type.lower())
        names = [result or name] if outputs == 1 else [f"{name}_{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(op_type, list(inputs), names, name=name, **attributes))
        return names[0] if outputs == 1 else names

    def model(self, opset: int) -> onnx.ModelProto:
        graph = helper.make_graph(
            self.nodes, self.name, self.inputs, self.outputs, self.initializers
        )
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="onnx_models"
        )
        model.ir_version = min(model.ir_version, 10)  # what onnxruntime reads
        onnx.checker.check_model(model, full_check=True)
        return model


# --- layers ------------------------------------------------------------------------------


def conv(
    g: Graph,
    x: str,
    cin: int,
    cout: int,
    kernel: int,
    stride: int = 1,
    group: int = 1,
    bias: bool = False,
) -> str:
    w = g.weight("conv_w", (cout, cin // group, kernel, kernel))
    inputs = [x, w, g.constant("conv_b", np.zeros(cout, np.float32))] if bias else [x, w]
    pad = kernel // 2
    return g.op(
        "Conv",
        *inputs,
        kernel_shape=[kernel, kernel],
        strides=[stride, stride],
        pads=[pad] * 4,
        group=group,
    )


def batch_norm(g: Graph, x: str, channels: int) -> str:
    scale = g.uniform("bn_scale", (channels,), 0.5, 1.5)
    shift = g.uniform("bn_bias", (channels,), -0.2, 0.2)
    mean = g.uniform("bn_mean", (channels,), -0.2, 0.2)
    var = g.uniform("bn_var", (channels,), 0.5, 1.5)
    return g.op("BatchNormalization", x, scale, shift, mean, var, epsilon=1e-5)


def conv_bn(
    g: Graph,
    x: str,
    cin: int,
    cout: int,
    kernel: int,
    stride: int = 1,
    group: int = 1,
    activation: Callable[[Graph, str], str] | None = None,
) -> str:
    y = batch_norm(g, conv(g, x, cin, cout, kernel, stride, group), cout)
    return activation(g, y) if activation else y


def relu(g: Graph, x: str) -> str:
    return g.op("Relu", x)


def relu6(g: Graph, x: str) -> str:
    """Clip to [0, 6] with the bounds as inputs (opset 11 on)."""
    return g.op("Clip", x, g.scalar(0.0), g.scalar(6.0))


def classifier(g: Graph, x: str, channels: int, classes: int) -> str:
    """Global average pooling, Flatten and a fully connected layer (Gemm, B transposed)."""
    flat = g.op("Flatten", g.op("GlobalAveragePool", x), axis=1)
    w = g.weight("fc_w", (classes, channels))
    b = g.constant("fc_b", np.zeros(classes, np.float32))
    return g.op("Gemm", flat, w, b, transB=1)


def linear(g: Graph, x: str, din: int, dout: int) -> str:
    """``x @ W + b``, as MatMul and Add."""
    w = g.weight("linear_w", (din, dout), fan_in=din)
    return g.op("Add", g.op("MatMul", x, w), g.uniform("linear_b", (dout,), -0.1, 0.1))


def layer_norm(g: Graph, x: str, width: int, axes_as_input: bool | None = None) -> str:
    """LayerNormalization over the last axis; with ``axes_as_input`` given, decomposed as
    exporters before opset 17 write it (ReduceMean's axes an input when True)."""
    gamma = g.uniform("ln_gamma", (width,), 0.8, 1.2)
    beta = g.uniform("ln_beta", (width,), -0.1, 0.1)
    if axes_as_input is None:
        return g.op("LayerNormalization", x, gamma, beta, axis=-1, epsilon=1e-5)

    def mean(value: str) -> str:
        if axes_as_input:
            return g.op("ReduceMean", value, g.ints(-1), keepdims=1)
        return g.op("ReduceMean", value, axes=[-1], keepdims=1)

    centred = g.op("Sub", x, mean(x))
    variance = mean(g.op("Pow", centred, g.scalar(2.0)))
    std = g.op("Sqrt", g.op("Add", variance, g.scalar(1e-5)))
    return g.op("Add", g.op("Mul", g.op("Div", centred, std), gamma), beta)


def gelu_erf(g: Graph, x: str) -> str:
    """``x * 0.5 * (1 + erf(x / sqrt(2)))``, as BERT exports write it."""
    erf = g.op("Erf", g.op("Div", x, g.scalar(math.sqrt(2.0))))
    return g.op("Mul", g.op("Mul", x, g.op("Add", erf, g.scalar(1.0))), g.scalar(0.5))


def gelu_tanh(g: Graph, x: str) -> str:
    """GPT-2's ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``."""
    cube = g.op("Mul", g.op("Pow", x, g.scalar(3.0)), g.scalar(0.044715))
    inner = g.op("Mul", g.op("Add", x, cube), g.scalar(math.sqrt(2.0 / math.pi)))
    half = g.op("Mul", x, g.scalar(0.5))
    return g.op("Mul", half, g.op("Add", g.op("Tanh", inner), g.scalar(1.0)))


def leading_dims(g: Graph, x: str, count: int, opset: int) -> list[str]:
    """The first ``count`` dimensions of ``x`` as 1-element tensors (Shape → Gather →
    Unsqueeze, as exporters write them)."""
    shape = g.op("Shape", x)
    dims = []
    for axis in range(count):
        scalar = g.op("Gather", shape, g.constant("axis", np.array(axis, np.int64)), axis=0)
        if opset >= 13:
            dims.append(g.op("Unsqueeze", scalar, g.ints(0)))
        else:
            dims.append(g.op("Unsqueeze", scalar, axes=[0]))
    return dims


def split_heads(g: Graph, x: str, heads: int, head_dim: int, opset: int, computed: bool) -> str:
    """``[b, s, heads * head_dim]`` → ``[b, heads, s, head_dim]``: Reshape to a shape
    computed from ``x``'s (``computed``) or to ``[0, 0, heads, head_dim]``, then Transpose."""
    if computed:
        shape = g.op("Concat", *leading_dims(g, x, 2, opset), g.ints(heads, head_dim), axis=0)
    else:
        shape = g.ints(0, 0, heads, head_dim)
    return g.op("Transpose", g.op("Reshape", x, shape), perm=[0, 2, 1, 3])


def merge_heads(g: Graph, x: str, width: int, opset: int, computed: bool) -> str:
    """``[b, heads, s, head_dim]`` → ``[b, s, width]``."""
    y = g.op("Transpose", x, perm=[0, 2, 1, 3])
    if computed:
        shape = g.op("Concat", *leading_dims(g, y, 2, opset), g.ints(width), axis=0)
    else:
        shape = g.ints(0, 0, width)
    return g.op("Reshape", y, shape)


@dataclass
class Attention:
    """Multi-head self-attention's sizes and how its graph is written."""

    width: int
    heads: int
    opset: int
    computed_shapes: bool = True
    """Reshape to shapes computed from the input's (else to ``[0, 0, ...]``)."""

    @property
    def head_dim(self) -> int:
        return self.width // self.heads

    def scores(self, g: Graph, q: str, k: str) -> str:
        """``q @ k^T / sqrt(head_dim)``."""
        kt = g.op("Transpose", k, perm=[0, 1, 3, 2])
        return g.op("Div", g.op("MatMul", q, kt), g.scalar(math.sqrt(self.head_dim)))

    def __call__(self, g: Graph, x: str, mask: str | None = None) -> str:
        """Attention of ``x: [b, s, width]`` with an additive ``mask`` on the scores."""
        q, k, v = (
            split_heads(
                g,
                linear(g, x, self.width, self.width),
                self.heads,
                self.head_dim,
                self.opset,
                self.computed_shapes,
            )
            for _ in range(3)
        )
        scores = self.scores(g, q, k)
        if mask is not None:
            scores = g.op("Add", scores, mask)
        context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        merged = merge_heads(g, context, self.width, self.opset, self.computed_shapes)
        return linear(g, merged, self.width, self.width)


# --- architectures -----------------------------------------------------------------------


def resnet18(
    width: int = 64, image: int = 224, classes: int = 1000, seed: int = 0
) -> onnx.ModelProto:
    """ResNet-18 (basic blocks [2, 2, 2, 2]) on ``[batch, 3, image, image]``."""
    g = Graph("resnet18", seed)
    x = g.input("input", ["batch", 3, image, image])
    y = conv_bn(g, x, 3, width, 7, 2, activation=relu)
    y = g.op("MaxPool", y, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    channels = width
    for stage in range(4):
        out = width * 2**stage
        for block in range(2):
            stride = 2 if stage > 0 and block == 0 else 1
            branch = conv_bn(g, y, channels, out, 3, stride, activation=relu)
            branch = conv_bn(g, branch, out, out, 3)
            shortcut = conv_bn(g, y, channels, out, 1, stride) if stride != 1 else y
            y = g.op("Relu", g.op("Add", branch, shortcut))
            channels = out
    g.output(classifier(g, y, channels, classes), "logits", ["batch", classes])
    return g.model(13)


MOBILENET_BLOCKS = (
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
)
"""MobileNetV2's inverted residual stages: expansion, channels, repeats, first stride."""


def mobilenet_v2(
    width: float = 1.0, image: int = 224, classes: int = 1000, seed: int = 0
) -> onnx.ModelProto:
    """MobileNetV2 with a width multiplier (channels rounded to multiples of 8)."""

    def channels(c: int) -> int:
        return max(8, int(c * width + 4) // 8 * 8)

    g = Graph("mobilenet_v2", seed)
    x = g.input("input", ["batch", 3, image, image])
    cin = channels(32)
    y = conv_bn(g, x, 3, cin, 3, 2, activation=relu6)
    for expansion, c, repeats, first_stride in MOBILENET_BLOCKS:
        cout = channels(c)
        for index in range(repeats):
            stride = first_stride if index == 0 else 1
            hidden = cin * expansion
            z = conv_bn(g, y, cin, hidden, 1, activation=relu6) if expansion != 1 else y
            z = conv_bn(g, z, hidden, hidden, 3, stride, group=hidden, activation=relu6)
            z = conv_bn(g, z, hidden, cout, 1)
            y = g.op("Add", y, z) if stride == 1 and cin == cout else z
            cin = cout
    last = max(1280, channels(1280)) if width > 1.0 else channels(1280)
    y = conv_bn(g, y, cin, last, 1, activation=relu6)
    g.output(classifier(g, y, last, classes), "logits", ["batch", classes])
    return g.model(11)


FIRE_MODULES = (
    (16, 64),
    (16, 64),
    None,
    (32, 128),
    (32, 128),
    None,
    (48, 192),
    (48, 192),
    (64, 256),
    (64, 256),
)
"""SqueezeNet 1.1's Fire modules (squeeze, expand channels); None: a max pooling."""


def squeezenet(
    width: float = 1.0, image: int = 224, classes: int = 1000, seed: int = 0
) -> onnx.ModelProto:
    """SqueezeNet 1.1: Fire modules (squeeze 1×1, then expand 1×1 and 3×3 joined by Concat)."""

    def scaled(c: int) -> int:
        return max(4, int(c * width))

    def pool(y: str) -> str:
        return g.op("MaxPool", y, kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)

    g = Graph("squeezenet", seed)
    x = g.input("input", ["batch", 3, image, image])
    cin = scaled(64)
    y = pool(g.op("Relu", conv(g, x, 3, cin, 3, 2, bias=True)))
    for fire in FIRE_MODULES:
        if fire is None:
            y = pool(y)
            continue
        squeeze, expand = scaled(fire[0]), scaled(fire[1])
        s = g.op("Relu", conv(g, y, cin, squeeze, 1, bias=True))
        e1 = g.op("Relu", conv(g, s, squeeze, expand, 1, bias=True))
        e3 = g.op("Relu", conv(g, s, squeeze, expand, 3, bias=True))
        y, cin = g.op("Concat", e1, e3, axis=1), 2 * expand
    y = g.op("Relu", conv(g, g.op("Dropout", y), cin, classes, 1, bias=True))
    logits = g.op("Flatten", g.op("GlobalAveragePool", y), axis=1)
    g.output(g.op("Softmax", logits, axis=1), "probabilities", ["batch", classes])
    return g.model(12)


def bert_layer(
    width: int = 768,
    heads: int = 12,
    ffn: int = 3072,
    decomposed: bool = False,
    layers: int = 1,
    seed: int = 0,
) -> onnx.ModelProto:
    """A BERT-base encoder layer (post-norm; ``layers`` of them in a row) on hidden states
    ``[batch, seq, width]`` with an integer attention mask ``[batch, seq]``; ``decomposed``:
    the layer norms as ReduceMean/Sub/Pow/Sqrt/Div (opset 18, axes as inputs), else
    LayerNormalization (opset 17)."""
    opset = 18 if decomposed else 17
    g = Graph("bert_layer", seed)
    x = g.input("hidden_states", ["batch", "seq", width])
    mask = g.input("attention_mask", ["batch", "seq"], TensorProto.INT64)
    keep = g.op("Cast", g.op("Unsqueeze", mask, g.ints(1, 2)), to=TensorProto.FLOAT)
    additive = g.op("Mul", g.op("Sub", g.scalar(1.0), keep), g.scalar(-10000.0))
    attention = Attention(width, heads, opset)

    def norm(value: str) -> str:
        return layer_norm(g, value, width, axes_as_input=True if decomposed else None)

    y = x
    for _ in range(layers):
        y = norm(g.op("Add", y, attention(g, y, additive)))
        hidden = gelu_erf(g, linear(g, y, width, ffn))
        y = norm(g.op("Add", y, linear(g, hidden, ffn, width)))
    g.output(y, "output", ["batch", "seq", width])
    return g.model(opset)


def gpt2_block(
    width: int = 768, heads: int = 12, positions: int = 1024, seed: int = 0
) -> onnx.ModelProto:
    """A GPT-2 decoder block (pre-norm) on ``[batch, seq, width]`` with a KV cache
    ``past_key``/``past_value: [batch, heads, past, head_dim]``; outputs the hidden states
    and the cache extended by ``seq``. The causal mask is sliced out of a constant lower
    triangle ``[1, 1, positions, positions]`` at rows ``past .. past + seq`` (Slice with
    starts and ends computed from the shapes), as Hugging Face's export does."""
    opset = 14
    attention = Attention(width, heads, opset, computed_shapes=False)
    hd = attention.head_dim
    g = Graph("gpt2_block", seed)
    x = g.input("hidden_states", ["batch", "seq", width])
    past_key = g.input("past_key", ["batch", heads, "past", hd])
    past_value = g.input("past_value", ["batch", heads, "past", hd])
    normed = layer_norm(g, x, width, axes_as_input=False)
    qkv = linear(g, normed, width, 3 * width)
    q, k, v = g.op("Split", qkv, g.ints(width, width, width), axis=2, outputs=3)
    q, k, v = (split_heads(g, t, heads, hd, opset, computed=False) for t in (q, k, v))
    key = g.op("Concat", past_key, k, axis=2)
    value = g.op("Concat", past_value, v, axis=2)
    scores = attention.scores(g, q, key)
    total = g.op("Gather", g.op("Shape", key), g.ints(2), axis=0)
    seq = g.op("Gather", g.op("Shape", q), g.ints(2), axis=0)
    triangle = np.tril(np.ones((positions, positions), bool))[None, None]
    causal = g.op(
        "Slice",
        g.constant("causal", triangle),
        g.op("Sub", total, seq),
        total,
        g.ints(2),
        g.ints(1),
    )
    causal = g.op("Slice", causal, g.ints(0), total, g.ints(3), g.ints(1))
    lowest = g.scalar(float(np.finfo(np.float32).min))
    scores = g.op("Where", causal, scores, lowest)
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), value)
    merged = merge_heads(g, context, width, opset, computed=False)
    y = g.op("Add", x, linear(g, merged, width, width))
    hidden = gelu_tanh(g, linear(g, layer_norm(g, y, width, axes_as_input=False), width, 4 * width))
    y = g.op("Add", y, linear(g, hidden, 4 * width, width))
    g.output(y, "output", ["batch", "seq", width])
    g.output(key, "present_key", ["batch", heads, None, hd])
    g.output(value, "present_value", ["batch", heads, None, hd])
    return g.model(opset)


def vit(
    width: int = 768,
    heads: int = 12,
    ffn: int = 3072,
    image: int = 224,
    patch: int = 16,
    classes: int = 1000,
    seed: int = 0,
) -> onnx.ModelProto:
    """ViT: patch embedding (a strided Conv), class token, position embedding, one pre-norm
    encoder layer with the Gelu operator, the final norm and a classifier on the class
    token."""
    opset = 20
    patches = (image // patch) ** 2
    g = Graph("vit", seed)
    x = g.input("pixel_values", ["batch", 3, image, image])
    w = g.weight("patch_w", (width, 3, patch, patch))
    embedded = g.op(
        "Conv",
        x,
        w,
        g.uniform("patch_b", (width,), -0.1, 0.1),
        kernel_shape=[patch, patch],
        strides=[patch, patch],
    )
    tokens = g.op("Transpose", g.op("Reshape", embedded, g.ints(0, width, -1)), perm=[0, 2, 1])
    batch = leading_dims(g, x, 1, opset)[0]
    cls_shape = g.op("Concat", batch, g.ints(1, width), axis=0)
    cls = g.op("Expand", g.uniform("cls_token", (1, 1, width), -0.1, 0.1), cls_shape)
    y = g.op("Concat", cls, tokens, axis=1)
    y = g.op("Add", y, g.uniform("position", (1, patches + 1, width), -0.1, 0.1))
    attention = Attention(width, heads, opset, computed_shapes=False)
    y = g.op("Add", y, attention(g, layer_norm(g, y, width)))
    hidden = g.op("Gelu", linear(g, layer_norm(g, y, width), width, ffn))
    y = g.op("Add", y, linear(g, hidden, ffn, width))
    first = g.op("Gather", layer_norm(g, y, width), g.constant("cls_index", np.array(0)), axis=1)
    head = g.op(
        "Gemm",
        first,
        g.weight("head_w", (classes, width)),
        g.constant("head_b", np.zeros(classes, np.float32)),
        transB=1,
    )
    g.output(head, "logits", ["batch", classes])
    return g.model(opset)


def lstm_model(
    features: int = 64,
    hidden: int = 256,
    classes: int = 10,
    steps: int | str = 32,
    seed: int = 0,
) -> onnx.ModelProto:
    """A sequence classifier on ``[steps, batch, features]``: a bidirectional LSTM, whose two
    directions are joined (Transpose, Reshape) into a second LSTM, whose last hidden state
    goes through a linear layer (opset 14). ``steps``: the sequence length, a number (the
    importer unrolls the time steps) or a symbolic name."""
    g = Graph("lstm", seed)
    x = g.input("sequence", [steps, "batch", features])

    def lstm(value: str, inputs: int, directions: int) -> list[str]:
        gates = 4 * hidden
        w = g.weight("lstm_w", (directions, gates, inputs), fan_in=inputs)
        r = g.weight("lstm_r", (directions, gates, hidden), fan_in=hidden)
        b = g.uniform("lstm_b", (directions, 2 * gates), -0.1, 0.1)
        direction = "bidirectional" if directions == 2 else "forward"
        return g.op("LSTM", value, w, r, b, hidden_size=hidden, direction=direction, outputs=3)

    y, _, _ = lstm(x, features, 2)  # [seq, 2, batch, hidden]
    joined = g.op("Reshape", g.op("Transpose", y, perm=[0, 2, 1, 3]), g.ints(0, 0, -1))
    _, last, _ = lstm(joined, 2 * hidden, 1)  # [1, batch, hidden]
    logits = linear(g, g.op("Squeeze", last, g.ints(0)), hidden, classes)
    g.output(logits, "logits", ["batch", classes])
    return g.model(14)


# --- the catalogue -----------------------------------------------------------------------


@dataclass(frozen=True)
class Architecture:
    """A model builder with the sizes the tests and the benchmarks build it at, and the
    symbolic dimensions' values to run it with."""

    build: Callable[..., onnx.ModelProto]
    small: Mapping[str, Any]
    full: Mapping[str, Any] = field(default_factory=dict)
    dims: Mapping[str, int] = field(default_factory=lambda: {"batch": 2})

    def model(self, full: bool = False, **sizes: Any) -> onnx.ModelProto:
        return self.build(**{**(self.full if full else self.small), **sizes})


ARCHITECTURES: dict[str, Architecture] = {
    "resnet18": Architecture(resnet18, {"width": 8, "image": 32, "classes": 10}),
    "mobilenet": Architecture(mobilenet_v2, {"width": 0.25, "image": 32, "classes": 10}),
    "squeezenet": Architecture(squeezenet, {"width": 0.25, "image": 48, "classes": 10}),
    "bert": Architecture(
        bert_layer, {"width": 32, "heads": 4, "ffn": 64}, dims={"batch": 2, "seq": 7}
    ),
    "bert_ln": Architecture(
        bert_layer,
        {"width": 32, "heads": 4, "ffn": 64, "decomposed": True},
        {"decomposed": True},
        dims={"batch": 2, "seq": 7},
    ),
    "gpt2": Architecture(
        gpt2_block,
        {"width": 32, "heads": 4, "positions": 32},
        dims={"batch": 2, "seq": 5, "past": 3},
    ),
    "vit": Architecture(
        vit, {"width": 32, "heads": 4, "ffn": 64, "image": 32, "patch": 8, "classes": 10}
    ),
    "lstm": Architecture(lstm_model, {"features": 8, "hidden": 16, "classes": 5, "steps": 6}),
}


def example_inputs(
    model: onnx.ModelProto, dims: Mapping[str, int], seed: int = 0
) -> dict[str, np.ndarray]:
    """Random inputs for the model's graph inputs, its symbolic dimensions set by ``dims``:
    standard normal floats; 0/1 integers (masks) with the first position set."""
    rng = np.random.default_rng(seed)
    initializers = {i.name for i in model.graph.initializer}
    inputs = {}
    for value in model.graph.input:
        if value.name in initializers:
            continue
        tensor = value.type.tensor_type
        shape = [
            d.dim_value if d.HasField("dim_value") else dims[d.dim_param] for d in tensor.shape.dim
        ]
        dtype = helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        if dtype.kind == "f":
            inputs[value.name] = rng.standard_normal(shape).astype(dtype)
        else:
            data = rng.integers(0, 2, shape).astype(dtype)
            data[..., 0] = 1
            inputs[value.name] = data
    return inputs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("architecture", choices=sorted(ARCHITECTURES))
    parser.add_argument("--full", action="store_true", help="the published sizes")
    parser.add_argument("-o", "--output", default="-", help="the model file (default: stdout)")
    parser.add_argument("--inputs", help="write random inputs for it to this .npz")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    architecture = ARCHITECTURES[args.architecture]
    model = architecture.model(args.full, seed=args.seed)
    data = model.SerializeToString()
    if args.output == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(args.output, "wb") as handle:
            handle.write(data)
    if args.inputs:
        np.savez(args.inputs, **example_inputs(model, architecture.dims, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
