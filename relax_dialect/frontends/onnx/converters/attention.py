"""Attention (opsets 23 to 25) and RotaryEmbedding, decomposed into matrix
products, a softmax and masks, so that every form computes: 3-D inputs split
into heads, grouped-query heads, a key/value cache, boolean or additive
masks, causal and sliding-window masks offset by the cache, the padded
key/value lengths of opset 24, softcap and the ``qk_matmul_output`` modes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import INT64
from ....prim_expr import PrimExpr
from ....prim_expr_simplify import prove_equal, simplify
from ..context import NodeContext
from .registry import converter
from .values import (
    data_type,
    dimension_tensor,
    emit,
    known_shape,
    numpy_dtype,
    onnx_data_type,
    output_used,
    scalar,
    static_dim,
)

Expr = SSAValue | Call | np.ndarray


def _split_heads(ctx: NodeContext, x: SSAValue, heads: int) -> Call:
    """``[batch, sequence, heads * size]`` as ``[batch, heads, sequence, size]``."""
    batch, sequence, hidden = known_shape(ctx, x)
    size = simplify(hidden // heads)
    split = call("relax.reshape", x, Shape((batch, sequence, heads, size)))
    return call("relax.permute_dims", split, axes=[0, 2, 1, 3])


def _head_attribute(ctx: NodeContext, name: str) -> int:
    heads = ctx.attr(name, 0)
    if heads <= 0:
        ctx.error(f"3-D inputs need a positive {name}")
    return heads


def _positions(length: PrimExpr, shape: tuple[PrimExpr | int, ...]) -> Call:
    """``0 .. length - 1`` laid along the axis of ``shape`` that holds ``length``."""
    return call("relax.reshape", call("relax.arange", 0, length, 1, dtype=INT64), Shape(shape))


class Masks:
    """The additive bias of the scores: 0 where a query may attend a key,
    ``-inf`` elsewhere."""

    def __init__(self, ctx: NodeContext, like: SSAValue):
        self.ctx = ctx
        self.dtype = numpy_dtype(ctx, like)
        self.bias: Expr | None = None

    def allowed(self, condition: Expr) -> Call:
        zero, blocked = np.array(0, self.dtype), np.array(-np.inf, self.dtype)
        return call("relax.where", condition, zero, blocked)

    def add(self, term: Expr) -> None:
        self.bias = term if self.bias is None else call("relax.add", self.bias, term)


def _mask_bias(ctx: NodeContext, masks: Masks, mask: SSAValue, keys: PrimExpr) -> Expr:
    """The ``attn_mask`` input as a bias over ``keys`` keys (a shorter one is
    padded with blocked positions)."""
    length = known_shape(ctx, mask, "attn_mask")[-1]
    boolean = ctx.dtype(mask) == "bool"
    bias: Expr = masks.allowed(mask) if boolean else mask
    if not prove_equal(length, keys):
        missing = static_dim(ctx, simplify(keys - length), "padding attn_mask to the keys")
        rank = len(known_shape(ctx, mask))
        bias = call(
            "relax.nn.pad",
            bias,
            pad_width=[0] * (2 * rank - 1) + [missing],
            pad_value=float("-inf"),
        )
    return bias


def _frontier(ctx: NodeContext, queries: PrimExpr, offset: Expr | None) -> tuple[Call, Expr]:
    """Query positions ``[queries, 1]`` shifted by the cache ``offset`` (a
    scalar, or per batch ``[batch, 1, 1, 1]``), and key positions ``[1, keys]``."""
    rows = _positions(queries, (queries, 1))
    return rows if offset is None else call("relax.add", rows, offset)  # type: ignore[return-value]


def _offset(
    ctx: NodeContext, past: PrimExpr | None, lengths: SSAValue | None, queries: PrimExpr
) -> Expr | None:
    """How many keys precede the queries: the cache's length, or per batch the
    non-padded key count minus the queries (opset 24's external cache)."""
    if past is not None:
        return dimension_tensor(past)
    if lengths is None:
        return None
    per_batch = call(
        "relax.subtract", call("relax.astype", lengths, dtype=INT64), dimension_tensor(queries)
    )
    return call("relax.reshape", per_batch, Shape((known_shape(ctx, lengths)[0], 1, 1, 1)))


@converter("Attention", since=23)
def attention(ctx: NodeContext) -> Sequence[SSAValue | None]:
    q, k, v = ctx.input(0), ctx.input(1), ctx.input(2)
    rank = len(known_shape(ctx, q))
    if rank not in (3, 4):
        ctx.error(f"Q has rank {rank}, expected 3 or 4")
    query: Expr = q
    key: Expr = k
    value: Expr = v
    if rank == 3:
        q_heads = _head_attribute(ctx, "q_num_heads")
        kv_heads = _head_attribute(ctx, "kv_num_heads")
        query = _split_heads(ctx, q, q_heads)
        key = _split_heads(ctx, k, kv_heads)
        value = _split_heads(ctx, v, kv_heads)
        batch, q_length, q_hidden = known_shape(ctx, q)
        head_size: PrimExpr = simplify(q_hidden // q_heads)
    else:
        batch, heads, q_length, head_size = known_shape(ctx, q)
        q_heads = static_dim(ctx, heads, "grouping query heads")
        kv_heads = static_dim(ctx, known_shape(ctx, k)[1], "grouping key heads")
    query, key, value = (
        ctx.emit(e.op, *e.args, **e.attrs) if isinstance(e, Call) else e
        for e in (query, key, value)
    )
    past_key, past_value = ctx.optional_input(4), ctx.optional_input(5)
    if (past_key is None) != (past_value is None):
        ctx.error("past_key and past_value go together")
    lengths = ctx.optional_input(6) if ctx.opset >= 24 else None
    past_length = None
    if past_key is not None:
        past_length = known_shape(ctx, past_key, "past_key")[2]
        key = ctx.emit("relax.concat", [past_key, key], axis=2)
        value = ctx.emit("relax.concat", [past_value, value], axis=2)
    keys = known_shape(ctx, key)[2]

    masks = Masks(ctx, q)
    mask = ctx.optional_input(3)
    if mask is not None:
        masks.add(_mask_bias(ctx, masks, mask, keys))
    offset = _offset(ctx, past_length, lengths, q_length)
    columns = _positions(keys, (1, keys))
    rows = _frontier(ctx, q_length, offset)
    if ctx.attr("is_causal", 0):
        masks.add(masks.allowed(call("relax.less_equal", columns, rows)))
    left, right = ctx.attr("left_window_size", -1), ctx.attr("right_window_size", -1)
    if left >= 0:
        reach = call("relax.subtract", rows, columns)
        masks.add(masks.allowed(call("relax.less_equal", reach, np.array(left, np.int64))))
    if right >= 0:
        reach = call("relax.subtract", columns, rows)
        masks.add(masks.allowed(call("relax.less_equal", reach, np.array(right, np.int64))))
    if lengths is not None:
        padded = call(
            "relax.reshape", call("relax.astype", lengths, dtype=INT64), Shape((batch, 1, 1, 1))
        )
        masks.add(masks.allowed(call("relax.less", _positions(keys, (1, 1, 1, keys)), padded)))

    if q_heads != kv_heads:
        if q_heads % kv_heads:
            ctx.error(f"{q_heads} query heads cannot share {kv_heads} key/value heads")
        key_grouped = call("relax.repeat", key, repeats=q_heads // kv_heads, axis=1)
        value_grouped = call("relax.repeat", value, repeats=q_heads // kv_heads, axis=1)
    else:
        key_grouped, value_grouped = key, value

    scale = ctx.attr("scale", None)
    if scale is None:
        scale = 1.0 / np.sqrt(static_dim(ctx, head_size, "the default scale"))
    root = scalar(ctx, float(np.sqrt(scale)), q)
    scores: Expr = call(
        "relax.matmul",
        call("relax.multiply", query, root),
        call("relax.permute_dims", call("relax.multiply", key_grouped, root), axes=[0, 1, 3, 2]),
    )
    softcap = ctx.attr("softcap", 0.0)
    if softcap > 0:
        cap = scalar(ctx, softcap, q)
        scores = call("relax.multiply", call("relax.tanh", call("relax.divide", scores, cap)), cap)
    mode = ctx.attr("qk_matmul_output_mode", 0)
    if mode not in (0, 1, 2, 3):
        ctx.error(f"qk_matmul_output_mode must be 0 to 3, got {mode}")
    scores = ctx.emit(scores.op, *scores.args, **scores.attrs)  # type: ignore[union-attr]
    biased: Expr = scores if masks.bias is None else call("relax.add", scores, masks.bias)
    biased = emit(ctx, biased) if isinstance(biased, Call) else biased
    precision = ctx.attr("softmax_precision", None)
    logits: Expr = biased
    if precision is not None:
        logits = call("relax.astype", biased, dtype=onnx_data_type(ctx, precision))
    probabilities: Expr = call("relax.nn.softmax", logits, axis=-1)
    if precision is not None:
        probabilities = call("relax.astype", probabilities, dtype=data_type(ctx, q))
    if masks.bias is not None:
        blocked = call(
            "relax.equal",
            call("relax.max", masks.bias, axis=[-1], keepdims=True),
            np.array(-np.inf, masks.dtype),
        )
        probabilities = call("relax.where", blocked, np.array(0, masks.dtype), probabilities)
    probabilities = emit(ctx, probabilities)  # type: ignore[arg-type]
    result: Expr = call("relax.matmul", probabilities, value_grouped)
    if rank == 3:
        merged = call("relax.permute_dims", result, axes=[0, 2, 1, 3])
        v_hidden = known_shape(ctx, v)[2]
        result = call(
            "relax.reshape",
            merged,
            Shape((batch, q_length, simplify(v_hidden // kv_heads * q_heads))),
        )
    outputs: list[SSAValue | None] = [emit(ctx, result)]  # type: ignore[arg-type]
    if ctx.num_outputs > 1:
        outputs += [key if output_used(ctx, 1) else None, value if output_used(ctx, 2) else None]
    if output_used(ctx, 3):
        outputs.append({0: scores, 1: scores, 2: biased, 3: probabilities}[mode])
    return outputs[: ctx.num_outputs]


@converter("RotaryEmbedding", since=23)
def rotary_embedding(ctx: NodeContext) -> SSAValue:
    """Pairs of the first ``rotary_embedding_dim`` features of each head
    (halves, or neighbours when ``interleaved``) rotated by the cached angles
    at each position."""
    x, cos, sin = ctx.input(0), ctx.input(1), ctx.input(2)
    dims = known_shape(ctx, x)
    if len(dims) == 4:  # [batch, heads, sequence, size]
        data: Expr = x
        head_axis = 1
        size = static_dim(ctx, dims[3], "rotating the features")
    elif len(dims) == 3:  # [batch, sequence, heads * size]
        heads = _head_attribute(ctx, "num_heads")
        size = static_dim(ctx, dims[2], "rotating the features") // heads
        data = call("relax.reshape", x, Shape((dims[0], dims[1], heads, size)))
        head_axis = 2
    else:
        ctx.error(f"the input has rank {len(dims)}, expected 3 or 4")
    rotated = ctx.attr("rotary_embedding_dim", 0) or size
    positions = ctx.optional_input(3)
    caches = []
    for cache in (cos, sin):
        picked = cache if positions is None else call("relax.take", cache, positions, axis=0)
        caches.append(call("relax.expand_dims", picked, axis=[head_axis]))
    cos_at, sin_at = caches

    def features(begin: int, end: int, stride: int = 1) -> Call:
        return call("relax.strided_slice", data, [3], [begin], [end], [stride])

    half = rotated // 2
    if ctx.attr("interleaved", 0):
        first, second = features(0, rotated, 2), features(1, rotated, 2)
    else:
        first, second = features(0, half), features(half, rotated)
    real = call(
        "relax.subtract",
        call("relax.multiply", cos_at, first),
        call("relax.multiply", sin_at, second),
    )
    imaginary = call(
        "relax.add", call("relax.multiply", sin_at, first), call("relax.multiply", cos_at, second)
    )
    if ctx.attr("interleaved", 0):
        pairs = call("relax.stack", [real, imaginary], axis=4)
        shape = known_shape(ctx, ctx.emit(pairs.op, *pairs.args, **pairs.attrs))
        turned: Expr = call("relax.reshape", pairs, Shape((*shape[:3], rotated)))
    else:
        turned = call("relax.concat", [real, imaginary], axis=3)
    if rotated < size:
        turned = call("relax.concat", [turned, features(rotated, size)], axis=3)
    if len(dims) == 3:
        turned = call("relax.reshape", turned, Shape(tuple(dims)))
    return emit(ctx, turned)  # type: ignore[arg-type]
