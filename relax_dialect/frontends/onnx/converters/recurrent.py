"""Recurrent layers ``RNN``, ``GRU`` and ``LSTM``, unrolled over the time steps into
matrix products and activations.

Per direction, the input's contribution to every gate is one product over all
time steps (``X @ W_g^T + Wb_g``, before the loop); each step adds the hidden
state's (``H @ R_g^T + Rb_g``), applies the gate's activation (``activations``,
with ``activation_alpha``/``activation_beta`` consumed in order by the functions
that take them; ``clip`` bounds their inputs) and updates the state. The
reverse direction runs on the sequence reversed (each batch entry within its
``sequence_lens``) and reverses its outputs back. Past an entry's length the
state stays and the output is 0. ``layout`` 1 (batch first) is transposed in and
out. The sequence length must be static (the steps are unrolled); the batch may
be symbolic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape, call
from ....dtype import INT64
from ..context import NodeContext
from .activation import _exponential_linear, _hard_sigmoid
from .registry import converter
from .sequences import reversed_prefixes
from .values import data_type, emit, known_shape, numpy_dtype, output_used, scalar, static_dim

Activation = Callable[[SSAValue], SSAValue]

TAKES_ALPHA = {"Affine", "LeakyRelu", "ThresholdedRelu", "ScaledTanh", "HardSigmoid", "Elu"}
TAKES_BETA = {"Affine", "ScaledTanh", "HardSigmoid"}
DEFAULT_ALPHA = {
    "Affine": 1.0,
    "LeakyRelu": 0.01,
    "ThresholdedRelu": 1.0,
    "ScaledTanh": 1.0,
    "HardSigmoid": 0.2,
    "Elu": 1.0,
}
DEFAULT_BETA = {"Affine": 0.0, "ScaledTanh": 1.0, "HardSigmoid": 0.5}


def _activation(ctx: NodeContext, name: str, alpha: float, beta: float) -> Activation:
    """The activation function ``name`` (ONNX's recurrent-layer spelling)."""

    def apply(x: SSAValue) -> SSAValue:
        def number(value: float) -> np.ndarray:
            return scalar(ctx, value, x)

        match name:
            case "Relu":
                return ctx.emit("relax.nn.relu", x)
            case "Tanh":
                return ctx.emit("relax.tanh", x)
            case "Sigmoid":
                return ctx.emit("relax.sigmoid", x)
            case "Affine":
                return ctx.emit("relax.add", call("relax.multiply", x, number(alpha)), number(beta))
            case "LeakyRelu":
                return ctx.emit("relax.nn.leakyrelu", x, alpha=alpha)
            case "ThresholdedRelu":
                above = call("relax.greater", x, number(alpha))
                return ctx.emit("relax.where", above, x, number(0.0))
            case "ScaledTanh":
                inner = call("relax.tanh", call("relax.multiply", x, number(beta)))
                return ctx.emit("relax.multiply", inner, number(alpha))
            case "HardSigmoid":
                return _hard_sigmoid(ctx, x, alpha, beta)
            case "Elu":
                return _exponential_linear(ctx, x, alpha, 1.0)
            case "Softsign":
                return ctx.emit(
                    "relax.divide", x, call("relax.add", call("relax.abs", x), number(1))
                )
            case "Softplus":
                return ctx.emit("relax.log", call("relax.add", call("relax.exp", x), number(1)))
        ctx.unsupported(f"activation '{name}' is not supported")

    if name not in (*DEFAULT_ALPHA, "Relu", "Tanh", "Sigmoid", "Softsign", "Softplus"):
        ctx.unsupported(f"activation '{name}' is not supported")
    return apply


def _activations(
    ctx: NodeContext, defaults: Sequence[str], directions: int
) -> list[list[Activation]]:
    """Each direction's activation functions."""
    names = list(ctx.attr("activations", list(defaults) * directions))
    if len(names) != len(defaults) * directions:
        ctx.error(f"activations has {len(names)} functions, expected {len(defaults) * directions}")
    alphas = iter(ctx.attr("activation_alpha", []))
    betas = iter(ctx.attr("activation_beta", []))
    functions = []
    for name in names:
        alpha = next(alphas, DEFAULT_ALPHA.get(name, 0.0)) if name in TAKES_ALPHA else 0.0
        beta = next(betas, DEFAULT_BETA.get(name, 0.0)) if name in TAKES_BETA else 0.0
        functions.append(_activation(ctx, name, alpha, beta))
    per = len(defaults)
    return [functions[d * per : (d + 1) * per] for d in range(directions)]


@dataclass(frozen=True)
class Layer:
    """What the cells of one direction read: the gate weights, the activations and
    the ``clip`` threshold."""

    ctx: NodeContext
    inputs: list[SSAValue]
    """The input's contribution to each gate at every step, ``[T, B, H]``."""
    recurrent: list[SSAValue]
    """Each gate's ``R_g^T``, ``[H, H]``."""
    recurrent_bias: list[SSAValue | None]
    peepholes: list[SSAValue | None]
    functions: list[Activation]
    clip: float | None

    def pre(self, gate: int, t: int, hidden: SSAValue, extra: SSAValue | None = None) -> SSAValue:
        """Gate ``gate``'s input at step ``t``: the input's and the hidden state's
        contributions, the recurrent bias and ``extra``, clipped."""
        ctx = self.ctx
        total = ctx.emit(
            "relax.add",
            call("relax.take", self.inputs[gate], np.array(t, np.int64), axis=0),
            call("relax.matmul", hidden, self.recurrent[gate]),
        )
        return self.bounded(self.plus(total, self.recurrent_bias[gate], extra))

    def plus(self, value: SSAValue, *terms: SSAValue | None) -> SSAValue:
        for term in terms:
            if term is not None:
                value = self.ctx.emit("relax.add", value, term)
        return value

    def bounded(self, value: SSAValue) -> SSAValue:
        if self.clip is None:
            return value
        return self.ctx.emit("relax.clip", value, -self.clip, self.clip)

    def times(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.ctx.emit("relax.multiply", a, b)


State = list[SSAValue]
Cell = Callable[[Layer, int, State], State]


def _rnn_cell(layer: Layer, t: int, state: State) -> State:
    return [layer.functions[0](layer.pre(0, t, state[0]))]


def _gru_cell(layer: Layer, t: int, state: State) -> State:
    """Gates z, r, h; ``linear_before_reset`` applies the reset after the product."""
    ctx, (hidden,) = layer.ctx, state
    f, g = layer.functions
    update = f(layer.pre(0, t, hidden))
    reset = f(layer.pre(1, t, hidden))
    if ctx.attr("linear_before_reset", 0):
        product = layer.plus(
            ctx.emit("relax.matmul", hidden, layer.recurrent[2]), layer.recurrent_bias[2]
        )
        x_part = ctx.emit("relax.take", layer.inputs[2], np.array(t, np.int64), axis=0)
        candidate = g(layer.bounded(ctx.emit("relax.add", x_part, layer.times(reset, product))))
    else:
        candidate = g(layer.pre(2, t, layer.times(reset, hidden)))
    keep = layer.times(update, hidden)
    one = scalar(ctx, 1.0, hidden)
    return [
        ctx.emit("relax.add", layer.times(call("relax.subtract", one, update), candidate), keep)
    ]


def _lstm_cell(layer: Layer, t: int, state: State) -> State:
    """Gates i, o, f, c, peepholes ``P = [Pi, Po, Pf]``; ``input_forget`` couples
    the forget gate to the input gate (``f = 1 - i``)."""
    ctx, (hidden, cell) = layer.ctx, state
    f, g, h = layer.functions
    peep_i, peep_o, peep_f = layer.peepholes

    def peephole(weight: SSAValue | None, c: SSAValue) -> SSAValue | None:
        return None if weight is None else layer.times(weight, c)

    entry = f(layer.pre(0, t, hidden, peephole(peep_i, cell)))
    if ctx.attr("input_forget", 0):
        forget = ctx.emit("relax.subtract", scalar(ctx, 1.0, entry), entry)
    else:
        forget = f(layer.pre(2, t, hidden, peephole(peep_f, cell)))
    candidate = g(layer.pre(3, t, hidden))
    cell = ctx.emit("relax.add", layer.times(forget, cell), layer.times(entry, candidate))
    exit_ = f(layer.pre(1, t, hidden, peephole(peep_o, cell)))
    return [layer.times(exit_, h(cell)), cell]


@dataclass(frozen=True)
class Kind:
    """A recurrent layer: gates, default activations, cell, states (H, or H and C)."""

    gates: int
    defaults: tuple[str, ...]
    cell: Cell
    states: int


def _rows(ctx: NodeContext, tensor: SSAValue, direction: int, start: int, count: int) -> SSAValue:
    """``tensor[direction, start : start + count]``, the direction axis dropped."""
    begin, end = [direction, start], [direction + 1, start + count]
    return ctx.emit(
        "relax.squeeze", call("relax.strided_slice", tensor, [0, 1], begin, end), axis=[0]
    )


def _direction(ctx: NodeContext, tensor: SSAValue, direction: int) -> SSAValue:
    """``tensor[direction]``."""
    sliced = call("relax.strided_slice", tensor, [0], [direction], [direction + 1])
    return ctx.emit("relax.squeeze", sliced, axis=[0])


def _reversed(ctx: NodeContext, x: SSAValue, lengths: SSAValue | None) -> SSAValue:
    """``x`` (``[T, B, ...]``) with each batch entry's first ``lengths`` steps
    reversed (every step without ``lengths``)."""
    if lengths is None:
        return ctx.emit("relax.flip", x, axis=0)
    return reversed_prefixes(ctx, x, lengths, 0, 1)


def _valid(ctx: NodeContext, lengths: SSAValue, t: int) -> SSAValue:
    """Whether step ``t`` is within each batch entry's length, as a ``[B, 1]`` column."""
    inside = call("relax.less", np.array(t, np.int64), call("relax.astype", lengths, dtype=INT64))
    return ctx.emit("relax.expand_dims", inside, axis=[1])


def _prepare(
    ctx: NodeContext,
    kind: Kind,
    x: SSAValue,
    direction: int,
    size: int,
    functions: list[Activation],
) -> Layer:
    """The weights of one direction, split by gate, and the input's contributions."""
    weights, recurrent = ctx.input(1), ctx.input(2)
    bias = ctx.optional_input(3)
    peepholes = ctx.optional_input(7) if kind.states == 2 else None
    gates = range(kind.gates)

    def transposed(tensor: SSAValue, g: int) -> SSAValue:
        return ctx.emit("relax.permute_dims", _rows(ctx, tensor, direction, g * size, size))

    def bias_of(g: int) -> SSAValue | None:
        return None if bias is None else _rows(ctx, bias, direction, g * size, size)

    inputs = []
    for g in gates:
        product = ctx.emit("relax.matmul", x, transposed(weights, g))
        inputs.append(product if bias is None else ctx.emit("relax.add", product, bias_of(g)))
    recurrent_bias = [bias_of(kind.gates + g) for g in gates]
    peeps: list[SSAValue | None] = [None] * 3
    if peepholes is not None:
        peeps = [_rows(ctx, peepholes, direction, i * size, size) for i in range(3)]
    clip = ctx.attr("clip", None)
    return Layer(
        ctx,
        inputs,
        [transposed(recurrent, g) for g in gates],
        recurrent_bias,
        peeps,
        functions,
        clip,
    )


def _layer(ctx: NodeContext, kind: Kind) -> list[SSAValue | None]:
    """The layer's outputs ``Y``, ``Y_h`` (and ``Y_c``), those unused None."""
    x, lengths = ctx.input(0), ctx.optional_input(4)
    initial = [ctx.optional_input(5 + i) for i in range(kind.states)]
    batch_first = ctx.attr("layout", 0) == 1
    if batch_first:
        x = ctx.emit("relax.permute_dims", x, axes=[1, 0, 2])
        initial = [
            None if s is None else ctx.emit("relax.permute_dims", s, axes=[1, 0, 2])
            for s in initial
        ]
    direction = ctx.attr("direction", "forward")
    if direction not in ("forward", "reverse", "bidirectional"):
        ctx.error(f"direction must be forward, reverse or bidirectional, got '{direction}'")
    directions = 2 if direction == "bidirectional" else 1
    dims = known_shape(ctx, x)
    steps = static_dim(ctx, dims[0], "unrolling the time steps")
    size = ctx.attr("hidden_size", None)
    if size is None:
        size = static_dim(ctx, known_shape(ctx, ctx.input(2), "R")[-1], "the hidden size")
    functions = _activations(ctx, kind.defaults, directions)
    dtype = numpy_dtype(ctx, x)
    zeros = call("relax.zeros", Shape((dims[1], size)), dtype=data_type(ctx, x))
    finals: list[list[SSAValue]] = []
    outputs: list[SSAValue] = []
    for d in range(directions):
        backwards = direction == "reverse" or d == 1
        sequence = _reversed(ctx, x, lengths) if backwards else x
        layer = _prepare(ctx, kind, sequence, d, size, functions[d])
        state = [emit(ctx, zeros) if s is None else _direction(ctx, s, d) for s in initial]
        hidden = []
        for t in range(steps):
            new = kind.cell(layer, t, state)
            if lengths is None:
                hidden.append(new[0])
            else:
                valid = _valid(ctx, lengths, t)
                new = [
                    ctx.emit("relax.where", valid, n, s) for n, s in zip(new, state, strict=True)
                ]
                hidden.append(ctx.emit("relax.where", valid, new[0], np.zeros((), dtype)))
            state = new
        y = ctx.emit("relax.stack", hidden, axis=0)
        outputs.append(_reversed(ctx, y, lengths) if backwards else y)
        finals.append(state)
    y = ctx.emit("relax.stack", outputs, axis=1)
    last = [ctx.emit("relax.stack", [s[i] for s in finals], axis=0) for i in range(kind.states)]
    if batch_first:
        y = ctx.emit("relax.permute_dims", y, axes=[2, 0, 1, 3])
        last = [ctx.emit("relax.permute_dims", s, axes=[1, 0, 2]) for s in last]
    results: list[SSAValue | None] = [y, *last]
    return [r if output_used(ctx, i) else None for i, r in enumerate(results)]


RNN = Kind(1, ("Tanh",), _rnn_cell, 1)
GRU = Kind(3, ("Sigmoid", "Tanh"), _gru_cell, 1)
LSTM = Kind(4, ("Sigmoid", "Tanh", "Tanh"), _lstm_cell, 2)


@converter("RNN", since=7)
def rnn(ctx: NodeContext) -> list[SSAValue | None]:
    return _layer(ctx, RNN)


@converter("GRU", since=7)
def gru(ctx: NodeContext) -> list[SSAValue | None]:
    return _layer(ctx, GRU)


@converter("LSTM", since=7)
def lstm(ctx: NodeContext) -> list[SSAValue | None]:
    return _layer(ctx, LSTM)
