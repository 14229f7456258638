"""TfIdfVectorizer: how often each n-gram of the pool occurs in each row of
integers (``pool_int64s``; Relax has no strings), its items up to
``max_skip_count`` apart, weighted by the mode.

For each n-gram length and skip, the row's windows (``n`` slices, stacked) are
compared with every pool n-gram of that length at once; the matches summed over
the windows are the counts, which a 0/1 matrix moves to the output columns
(``ngram_indexes``). Unigrams are counted once, whatever the skip, as
onnxruntime does and the node tests expect."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import FLOAT32
from ..context import NodeContext
from .registry import converter
from .values import known_shape, numpy_dtype, static_dim

MODES = ("TF", "IDF", "TFIDF")


def _pool_grams(ctx: NodeContext) -> dict[int, tuple[np.ndarray, list[int]]]:
    """The pool's n-grams by length within ``[min_gram_length, max_gram_length]``:
    ``[count, n]`` items and the output column of each."""
    if ctx.has_attr("pool_strings"):
        ctx.unsupported("pool_strings is not supported: Relax has no string data type")
    pool = list(ctx.attr("pool_int64s"))
    starts = list(ctx.attr("ngram_counts"))
    columns = list(ctx.attr("ngram_indexes"))
    shortest, longest = ctx.attr("min_gram_length"), ctx.attr("max_gram_length")
    grams: dict[int, tuple[np.ndarray, list[int]]] = {}
    taken = 0
    for length, start in enumerate(starts, 1):
        end = starts[length] if length < len(starts) else len(pool)
        items = pool[start:end]
        if len(items) % length:
            ctx.error(f"the pool's {len(items)} items of {length}-grams do not split into them")
        count = len(items) // length
        if shortest <= length <= longest and count:
            if taken + count > len(columns):
                ctx.error(f"ngram_indexes has {len(columns)} entries for more n-grams")
            grams[length] = (
                np.array(items).reshape(count, length),
                columns[taken : taken + count],
            )
        taken += count
    return grams


def _counts(
    ctx: NodeContext, rows: SSAValue, width: int, grams: np.ndarray, skips: int
) -> Call | None:
    """``[batch, count]``: the occurrences of each of the ``n``-grams ``grams``
    (``[count, n]``) in ``rows`` (``[batch, width]``), items 1 to ``skips + 1``
    apart (None: no window fits)."""
    length = grams.shape[1]
    total: Call | None = None
    for distance in range(1, skips + 2 if length > 1 else 2):
        windows = width - (length - 1) * distance
        if windows <= 0:
            continue
        items = [
            call("relax.strided_slice", rows, [1], [i * distance], [i * distance + windows])
            for i in range(length)
        ]
        stacked = call("relax.expand_dims", call("relax.stack", items, axis=2), axis=[2])
        pool = grams.astype(numpy_dtype(ctx, rows))
        matches = call("relax.astype", call("relax.equal", stacked, pool), dtype=FLOAT32)
        found = call("relax.sum", call("relax.prod", matches, axis=[-1]), axis=[1])
        total = found if total is None else call("relax.add", total, found)
    return total


@converter("TfIdfVectorizer", since=9)
def tfidf_vectorizer(ctx: NodeContext) -> SSAValue:
    """``[C]`` or ``[N, C]`` integers to ``f32`` ``[size]`` or ``[N, size]``
    (``size`` the largest ``ngram_indexes`` plus 1): the counts (``TF``), the
    weights (default 1) where the count is positive (``IDF``), or their
    product (``TFIDF``); the ``k``-th weight is the ``k``-th pool n-gram's, in
    column ``ngram_indexes[k]``, as the specification and onnxruntime say."""
    mode = ctx.attr("mode")
    if mode not in MODES:
        ctx.error(f"mode must be one of {', '.join(MODES)}, got '{mode}'")
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    if len(dims) not in (1, 2):
        ctx.error(f"the input must be of rank 1 or 2, not {len(dims)}")
    width = static_dim(ctx, dims[-1], "counting the n-grams")
    batch = dims[0] if len(dims) == 2 else 1
    rows = ctx.emit("relax.reshape", x, Shape((batch, width)))
    size = max(ctx.attr("ngram_indexes")) + 1
    skips = ctx.attr("max_skip_count", 0)
    result: Call = call("relax.zeros", Shape((batch, size)), dtype=FLOAT32)
    for grams, columns in _pool_grams(ctx).values():
        counts = _counts(ctx, rows, width, grams, skips)
        if counts is not None:
            placement = np.zeros((len(columns), size), np.float32)
            placement[np.arange(len(columns)), columns] = 1
            result = call("relax.add", result, call("relax.matmul", counts, placement))
    columns = list(ctx.attr("ngram_indexes"))
    weights = np.ones(size, np.float32)
    if ctx.has_attr("weights"):
        given = list(ctx.attr("weights"))
        if len(given) != len(columns):
            ctx.error(f"weights has {len(given)} entries for {len(columns)} n-grams")
        weights[columns] = given
    if mode == "IDF":
        found = call("relax.greater", result, np.array(0, np.float32))
        result = call("relax.where", found, weights, np.array(0, np.float32))
    elif mode == "TFIDF":
        result = call("relax.multiply", result, weights)
    shape = (batch, size) if len(dims) == 2 else (size,)
    return ctx.emit("relax.reshape", result, Shape(shape))
