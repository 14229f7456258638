"""LinearAttention (opset 27): the recurrence of linear attention over a state
of ``[batch, kv_heads, key_size, value_size]``, unrolled over the (known)
sequence length and computed in ``f32``, as ONNX's reference computes it. Each
step may decay the state (``gated``), corrects what it writes by what the key
already retrieves (``delta``), writes ``key ⊗ value`` and reads it back with the
query; grouped query heads share a key/value head's state."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import FLOAT32
from ..context import NodeContext
from .registry import converter
from .values import data_type, emit, known_shape, static_dim


@dataclass(frozen=True)
class UpdateRule:
    """How a step changes the state besides writing ``key ⊗ value``."""

    gated: bool
    """The state first decays by ``exp(decay)`` (the ``decay`` input)."""
    corrected: bool
    """The value written is ``beta * (value - what the key retrieves)``."""


UPDATE_RULES = {
    "linear": UpdateRule(gated=False, corrected=False),
    "gated": UpdateRule(gated=True, corrected=False),
    "delta": UpdateRule(gated=False, corrected=True),
    "gated_delta": UpdateRule(gated=True, corrected=True),
}


def _steps(ctx: NodeContext, x: SSAValue, heads: int, length: int) -> list[SSAValue]:
    """``x`` of ``[batch, length, heads * size]`` as one ``[batch, heads, 1, size]``
    ``f32`` value per step."""
    batch, _, hidden = known_shape(ctx, x)
    size = static_dim(ctx, hidden, "splitting the heads")
    if size % heads:
        ctx.error(f"a last dimension of {size} does not split into {heads} heads")
    split = call("relax.reshape", x, Shape((batch, length, heads, size // heads)))
    per_head = call("relax.permute_dims", split, axes=[0, 2, 1, 3])
    whole = ctx.emit("relax.astype", per_head, dtype=FLOAT32)
    return [
        ctx.emit("relax.strided_slice", whole, [2], [step], [step + 1]) for step in range(length)
    ]


def _last_dim(ctx: NodeContext, x: SSAValue, what: str) -> int:
    dims = known_shape(ctx, x, what)
    if len(dims) != 3:
        ctx.error(f"{what} must be of rank 3, not {len(dims)}")
    return static_dim(ctx, dims[2], f"splitting {what}")


def _checked_inputs(ctx: NodeContext, rule: UpdateRule) -> None:
    """The decay and beta inputs are present exactly when the rule uses them."""
    for index, name, used in ((4, "decay", rule.gated), (5, "beta", rule.corrected)):
        if ctx.has_input(index) != used:
            needs = "needs" if used else "takes no"
            ctx.error(f"update_rule '{ctx.attr('update_rule', 'gated_delta')}' {needs} {name}")


@converter("LinearAttention", since=27)
def linear_attention(ctx: NodeContext) -> list[SSAValue]:
    name = ctx.attr("update_rule", "gated_delta")
    if name not in UPDATE_RULES:
        ctx.error(f"update_rule must be one of {', '.join(UPDATE_RULES)}, got '{name}'")
    rule = UPDATE_RULES[name]
    _checked_inputs(ctx, rule)
    query_heads, kv_heads = ctx.attr("q_num_heads", 0), ctx.attr("kv_num_heads", 0)
    if query_heads <= 0 or kv_heads <= 0 or query_heads % kv_heads:
        ctx.error(
            f"q_num_heads ({query_heads}) must be a positive multiple of kv_num_heads ({kv_heads})"
        )
    query, key, value = ctx.input(0), ctx.input(1), ctx.input(2)
    batch, sequence, _ = known_shape(ctx, query, "the query")
    length = static_dim(ctx, sequence, "unrolling the recurrence over the sequence")
    key_size = _last_dim(ctx, query, "the query") // query_heads
    value_size = _last_dim(ctx, value, "the value") // kv_heads
    queries = _steps(ctx, query, query_heads, length)
    keys = _steps(ctx, key, kv_heads, length)
    values = _steps(ctx, value, kv_heads, length)
    decays = betas = None
    if rule.gated:
        decay = ctx.input(4)
        if _last_dim(ctx, decay, "the decay") not in (kv_heads, kv_heads * key_size):
            ctx.error(f"the decay's last dimension must be {kv_heads} or {kv_heads * key_size}")
        decays = _steps(ctx, decay, kv_heads, length)
    if rule.corrected:
        beta = ctx.input(5)
        beta_heads = _last_dim(ctx, beta, "beta")
        if beta_heads not in (kv_heads, 1):
            ctx.error(f"beta's last dimension must be {kv_heads} or 1, not {beta_heads}")
        betas = _steps(ctx, beta, beta_heads, length)

    past = ctx.optional_input(3)
    state_type = data_type(ctx, query) if past is None else data_type(ctx, past)
    if past is None:
        dims = (batch, kv_heads, key_size, value_size)
        state = ctx.emit("relax.zeros", Shape(dims), dtype=FLOAT32)
    else:
        state = ctx.emit("relax.astype", past, dtype=FLOAT32)
    scale = ctx.attr("scale", 0.0) or 1.0 / np.sqrt(key_size)
    factor = np.array(scale, np.float32)
    outputs = []
    for step in range(length):
        if decays is not None:
            rate = call("relax.exp", call("relax.permute_dims", decays[step], axes=[0, 1, 3, 2]))
            state = ctx.emit("relax.multiply", state, rate)
        written: SSAValue | Call = values[step]
        if betas is not None:
            retrieved = call("relax.matmul", keys[step], state)
            written = call(
                "relax.multiply", betas[step], call("relax.subtract", written, retrieved)
            )
        column = call("relax.permute_dims", keys[step], axes=[0, 1, 3, 2])
        state = ctx.emit("relax.add", state, call("relax.multiply", column, written))
        shared = state
        if query_heads > kv_heads:
            shared = call("relax.repeat", state, repeats=query_heads // kv_heads, axis=1)
        read = call("relax.matmul", queries[step], shared)
        outputs.append(ctx.emit("relax.multiply", read, factor))

    heads = ctx.emit("relax.concat", outputs, axis=2) if length > 1 else outputs[0]
    merged = call("relax.permute_dims", heads, axes=[0, 2, 1, 3])
    flat = call("relax.reshape", merged, Shape((batch, length, query_heads * value_size)))
    output = emit(ctx, call("relax.astype", flat, dtype=data_type(ctx, query)))
    return [output, ctx.emit("relax.astype", state, dtype=state_type)]
