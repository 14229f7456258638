"""Attention (opsets 23 to 25) and RotaryEmbedding, decomposed into matrix
products, a softmax and masks, so that every form computes: 3-D inputs split
into heads, grouped-query heads, a key/value cache, boolean or additive
masks, causal and sliding-window masks offset by the cache, the padded
key/value lengths of opset 24, softcap, ``softmax_precision`` and the
``qk_matmul_output`` modes; FlexAttention (of ``ai.onnx.preview``), whose
scores and probabilities pass through the node's own subgraphs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import FLOAT32, INT64
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
    positions,
    scalar,
    static_dim,
)

Expr = SSAValue | Call | np.ndarray
"""What the builder binds."""


def _bound(ctx: NodeContext, value: Expr) -> SSAValue:
    return emit(ctx, value) if isinstance(value, Call) else ctx.builder.emit(value)


def _head_count(ctx: NodeContext, name: str) -> int:
    heads = ctx.attr(name, 0)
    if heads <= 0:
        ctx.error(f"3-D inputs need a positive {name}")
    return heads


def _split_heads(ctx: NodeContext, x: SSAValue, heads: int) -> SSAValue:
    """``[batch, sequence, heads * size]`` as ``[batch, heads, sequence, size]``."""
    batch, sequence, hidden = known_shape(ctx, x)
    split = call("relax.reshape", x, Shape((batch, sequence, heads, simplify(hidden // heads))))
    return ctx.emit("relax.permute_dims", split, axes=[0, 2, 1, 3])


@dataclass
class Heads:
    """Q, K and V as ``[batch, heads, sequence, size]``, with their head counts."""

    query: SSAValue
    key: SSAValue
    value: SSAValue
    query_heads: int
    key_heads: int

    @staticmethod
    def of(ctx: NodeContext) -> Heads:
        q, k, v = ctx.input(0), ctx.input(1), ctx.input(2)
        rank = len(known_shape(ctx, q))
        if rank == 4:
            query_heads = static_dim(ctx, known_shape(ctx, q)[1], "grouping query heads")
            key_heads = static_dim(ctx, known_shape(ctx, k)[1], "grouping key heads")
            return Heads(q, k, v, query_heads, key_heads)
        if rank != 3:
            ctx.error(f"Q has rank {rank}, expected 3 or 4")
        query_heads = _head_count(ctx, "q_num_heads")
        key_heads = _head_count(ctx, "kv_num_heads")
        return Heads(
            _split_heads(ctx, q, query_heads),
            _split_heads(ctx, k, key_heads),
            _split_heads(ctx, v, key_heads),
            query_heads,
            key_heads,
        )

    def grouped(self, ctx: NodeContext, x: SSAValue) -> SSAValue | Call:
        """Key or value heads repeated to one per query head."""
        if self.query_heads == self.key_heads:
            return x
        if self.query_heads % self.key_heads:
            ctx.error(f"{self.query_heads} query heads cannot share {self.key_heads} heads")
        return call("relax.repeat", x, repeats=self.query_heads // self.key_heads, axis=1)


class Bias:
    """The additive bias of the scores: 0 where a query may attend a key,
    ``-inf`` elsewhere; None when every query attends every key."""

    def __init__(self, ctx: NodeContext, like: SSAValue):
        self.dtype = numpy_dtype(ctx, like)
        self.total: Expr | None = None

    def allow(self, condition: Expr) -> None:
        """Block the positions where ``condition`` is false."""
        zero, blocked = np.array(0, self.dtype), np.array(-np.inf, self.dtype)
        self.add(call("relax.where", condition, zero, blocked))

    def add(self, term: Expr) -> None:
        self.total = term if self.total is None else call("relax.add", self.total, term)


def _add_mask(ctx: NodeContext, bias: Bias, mask: SSAValue, keys: PrimExpr) -> None:
    """The ``attn_mask`` input (boolean, or additive), over ``keys`` keys: a
    shorter one is padded with blocked positions."""
    dims = known_shape(ctx, mask, "attn_mask")
    if ctx.dtype(mask) == "bool":
        zero, blocked = np.array(0, bias.dtype), np.array(-np.inf, bias.dtype)
        term: Expr = call("relax.where", mask, zero, blocked)
    else:
        term = mask
    if not prove_equal(dims[-1], keys):
        missing = static_dim(ctx, simplify(keys - dims[-1]), "padding attn_mask to the keys")
        width = [0] * (2 * len(dims) - 1) + [missing]
        term = call("relax.nn.pad", term, pad_width=width, pad_value=float("-inf"))
    bias.add(term)


def _preceding_keys(
    ctx: NodeContext, past: SSAValue | None, lengths: SSAValue | None, queries: PrimExpr
) -> Expr | None:
    """How many keys precede the queries: the cache's length, or per batch
    (``[batch, 1, 1, 1]``) the non-padded key count minus the queries."""
    if past is not None:
        return dimension_tensor(known_shape(ctx, past, "past_key")[2])
    if lengths is None:
        return None
    count = call("relax.astype", lengths, dtype=INT64)
    ahead = call("relax.subtract", count, dimension_tensor(queries))
    return call("relax.reshape", ahead, Shape((known_shape(ctx, lengths)[0], 1, 1, 1)))


def _masks(ctx: NodeContext, q: SSAValue, queries: PrimExpr, keys: PrimExpr) -> Bias:
    """The bias of the mask input, the causal and window masks (query ``i``
    sits at key position ``i`` plus the preceding keys) and the padding of
    opset 24's ``nonpad_kv_seqlen``."""
    bias = Bias(ctx, q)
    if ctx.has_input(3):
        _add_mask(ctx, bias, ctx.input(3), keys)
    lengths = ctx.optional_input(6) if ctx.opset >= 24 else None
    preceding = _preceding_keys(ctx, ctx.optional_input(4), lengths, queries)
    rows: Expr = positions(queries, 2, 0)
    if preceding is not None:
        rows = call("relax.add", rows, preceding)
    columns = positions(keys, 2, 1)
    if ctx.attr("is_causal", 0):
        bias.allow(call("relax.less_equal", columns, rows))
    for name, ahead, behind in (("left", rows, columns), ("right", columns, rows)):
        size = ctx.attr(f"{name}_window_size", -1)
        if size >= 0:
            reach = call("relax.subtract", ahead, behind)
            bias.allow(call("relax.less_equal", reach, np.array(size, np.int64)))
    if lengths is not None:
        count = call("relax.astype", lengths, dtype=INT64)
        count = call("relax.reshape", count, Shape((known_shape(ctx, lengths)[0], 1, 1, 1)))
        bias.allow(call("relax.less", positions(keys, 4, 3), count))
    return bias


@converter("Attention", since=23)
def attention(ctx: NodeContext) -> Sequence[SSAValue | None]:
    q = ctx.input(0)
    heads = Heads.of(ctx)
    key, value = heads.key, heads.value
    if ctx.has_input(4) != ctx.has_input(5):
        ctx.error("past_key and past_value go together")
    if ctx.has_input(4):
        key = ctx.emit("relax.concat", [ctx.input(4), key], axis=2)
        value = ctx.emit("relax.concat", [ctx.input(5), value], axis=2)
    _, _, queries, head_size = known_shape(ctx, heads.query)
    bias = _masks(ctx, q, queries, known_shape(ctx, key)[2])

    scale = ctx.attr("scale", None)
    if scale is None:
        scale = 1.0 / np.sqrt(static_dim(ctx, head_size, "the default scale"))
    root = scalar(ctx, float(np.sqrt(scale)), q)
    keys_t = call("relax.permute_dims", heads.grouped(ctx, key), axes=[0, 1, 3, 2])
    product: Expr = call(
        "relax.matmul",
        call("relax.multiply", heads.query, root),
        call("relax.multiply", keys_t, root),
    )
    softcap = ctx.attr("softcap", 0.0)
    if softcap > 0:
        cap = scalar(ctx, softcap, q)
        product = call(
            "relax.multiply", call("relax.tanh", call("relax.divide", product, cap)), cap
        )
    scores = _bound(ctx, product)
    biased = scores if bias.total is None else ctx.emit("relax.add", scores, bias.total)

    precision = ctx.attr("softmax_precision", None)
    logits: Expr = biased
    if precision is not None:
        logits = call("relax.astype", biased, dtype=onnx_data_type(ctx, precision))
    weights: Expr = call("relax.nn.softmax", logits, axis=-1)
    if precision is not None:
        weights = call("relax.astype", weights, dtype=data_type(ctx, q))
    if bias.total is not None:  # a query that may attend no key gets zeros
        strongest = call("relax.max", bias.total, axis=[-1], keepdims=True)
        nothing = call("relax.equal", strongest, np.array(-np.inf, bias.dtype))
        weights = call("relax.where", nothing, np.array(0, bias.dtype), weights)
    weights = _bound(ctx, weights)

    result: Expr = call("relax.matmul", weights, heads.grouped(ctx, value))
    if ctx.rank(q) == 3:
        batch, length, _ = known_shape(ctx, q)
        size = known_shape(ctx, heads.value)[3]
        merged = call("relax.permute_dims", result, axes=[0, 2, 1, 3])
        result = call(
            "relax.reshape", merged, Shape((batch, length, simplify(heads.query_heads * size)))
        )
    mode = ctx.attr("qk_matmul_output_mode", 0)
    if mode not in (0, 1, 2, 3):
        ctx.error(f"qk_matmul_output_mode must be 0 to 3, got {mode}")
    exposed = {0: scores, 1: scores, 2: biased, 3: weights}[mode]
    outputs = [_bound(ctx, result), key, value, exposed]
    return [
        out if index == 0 or output_used(ctx, index) else None for index, out in enumerate(outputs)
    ][: ctx.num_outputs]


def _modified(ctx: NodeContext, x: Expr, name: str) -> SSAValue:
    """``x`` through the node's subgraph ``name`` (one tensor in, one out), or as it is."""
    graph = ctx.attr(name, None)
    bound = _bound(ctx, x)
    if graph is None:
        return bound
    (result,) = ctx.import_subgraph(graph, [bound], name)
    return result


@converter("FlexAttention", since=1, domain="ai.onnx.preview")
def flex_attention(ctx: NodeContext) -> SSAValue:
    """Attention of 4-D heads with ``score_mod`` applied to the scores and
    ``prob_mod`` to the softmax; the scores, softmax and second product are in
    ``softmax_precision`` (by default ``f32`` for narrower floats), Q and K each
    scaled by the root of ``scale``, as ONNX's reference does."""
    q, key, value = ctx.input(0), ctx.input(1), ctx.input(2)
    dims = [known_shape(ctx, x) for x in (q, key, value)]
    if any(len(d) != 4 for d in dims):
        ctx.error("Q, K and V must be of rank 4 (batch, heads, sequence, size)")
    query_heads = static_dim(ctx, dims[0][1], "grouping query heads")
    key_heads = static_dim(ctx, dims[1][1], "grouping key heads")
    heads = Heads(q, key, value, query_heads, key_heads)
    scale = ctx.attr("scale", None)
    if scale is None:
        scale = 1.0 / np.sqrt(static_dim(ctx, dims[0][3], "the default scale"))
    root = np.array(np.sqrt(np.float32(scale)), numpy_dtype(ctx, q))
    keys_t = call("relax.permute_dims", heads.grouped(ctx, key), axes=[0, 1, 3, 2])
    product = call(
        "relax.matmul", call("relax.multiply", q, root), call("relax.multiply", keys_t, root)
    )
    dtype = data_type(ctx, q)
    precision = ctx.attr("softmax_precision", None)
    if precision is not None:
        compute = onnx_data_type(ctx, precision)
    else:
        compute = FLOAT32 if dtype.bits < 32 else dtype
    scores = _modified(ctx, call("relax.astype", product, dtype=compute), "score_mod")
    probabilities = _modified(ctx, call("relax.nn.softmax", scores, axis=-1), "prob_mod")
    values = call("relax.astype", heads.grouped(ctx, value), dtype=compute)
    return _bound(
        ctx, call("relax.astype", call("relax.matmul", probabilities, values), dtype=dtype)
    )


@converter("RotaryEmbedding", since=23)
def rotary_embedding(ctx: NodeContext) -> SSAValue:
    """Pairs of the first ``rotary_embedding_dim`` features of each head
    (halves, or neighbours when ``interleaved``) rotated by the cached angles
    of each position (``position_ids`` picks them, else they are given per
    batch and position)."""
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    if len(dims) == 4:  # [batch, heads, sequence, size]
        data: Expr = x
        head_axis = 1
        size = static_dim(ctx, dims[3], "rotating the features")
    elif len(dims) == 3:  # [batch, sequence, heads * size]
        count = _head_count(ctx, "num_heads")
        size = static_dim(ctx, dims[2], "rotating the features") // count
        data = call("relax.reshape", x, Shape((dims[0], dims[1], count, size)))
        head_axis = 2
    else:
        ctx.error(f"the input has rank {len(dims)}, expected 3 or 4")
    rotated = ctx.attr("rotary_embedding_dim", 0) or size
    cos, sin = (
        call(
            "relax.expand_dims",
            call("relax.take", cache, ctx.input(3), axis=0) if ctx.has_input(3) else cache,
            axis=[head_axis],
        )
        for cache in (ctx.input(1), ctx.input(2))
    )

    def features(begin: int, end: int, stride: int = 1) -> Call:
        return call("relax.strided_slice", data, [3], [begin], [end], [stride])

    interleaved = bool(ctx.attr("interleaved", 0))
    if interleaved:
        first, second = features(0, rotated, 2), features(1, rotated, 2)
    else:
        first, second = features(0, rotated // 2), features(rotated // 2, rotated)
    real = call(
        "relax.subtract", call("relax.multiply", cos, first), call("relax.multiply", sin, second)
    )
    imaginary = call(
        "relax.add", call("relax.multiply", sin, first), call("relax.multiply", cos, second)
    )
    if interleaved:
        pairs = ctx.emit("relax.stack", [real, imaginary], axis=4)
        turned: Expr = call("relax.reshape", pairs, Shape((*known_shape(ctx, pairs)[:3], rotated)))
    else:
        turned = call("relax.concat", [real, imaginary], axis=3)
    if rotated < size:
        turned = call("relax.concat", [turned, features(rotated, size)], axis=3)
    if len(dims) == 3:
        turned = call("relax.reshape", turned, Shape(tuple(dims)))
    return _bound(ctx, turned)
