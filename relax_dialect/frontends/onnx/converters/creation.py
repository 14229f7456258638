"""Tensors built from an input's shape or values: Trilu, OneHot, EyeLike."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, call
from ....dtype import INT64
from ..context import NodeContext
from .registry import converter
from .values import (
    constant_input,
    constant_int,
    data_type,
    known_shape,
    normalized_axis,
    onnx_data_type,
)


@converter("Trilu", since=14)
def trilu(ctx: NodeContext) -> SSAValue:
    """The upper (default) or lower triangle from diagonal ``k`` (default 0)."""
    k = 0 if ctx.optional_input(1) is None else constant_int(ctx, 1, "k")
    op = "relax.triu" if ctx.attr("upper", 1) else "relax.tril"
    return ctx.emit(op, ctx.input(0), k)


@converter("OneHot", since=9)
def one_hot(ctx: NodeContext) -> SSAValue:
    """``values[1]`` where a new axis ``axis`` matches the index (negative ones
    count from ``depth``), ``values[0]`` elsewhere."""
    indices: SSAValue | Call = ctx.input(0)
    if data_type(ctx, ctx.input(0)) != INT64:
        indices = call("relax.astype", indices, dtype=INT64)
    depth = int(constant_input(ctx, 1, "the depth").reshape(-1)[0])
    values = ctx.input(2)
    rank = len(known_shape(ctx, ctx.input(0)))
    axis = normalized_axis(ctx, ctx.attr("axis", -1), rank + 1)
    wrapped = call(
        "relax.where",
        call("relax.less", indices, np.array(0, np.int64)),
        call("relax.add", indices, np.array(depth, np.int64)),
        indices,
    )
    hot = call("relax.one_hot", wrapped, True, False, depth=depth, axis=axis)
    off, on = (call("relax.take", values, np.array(index, np.int64), axis=0) for index in (0, 1))
    return ctx.emit("relax.where", hot, on, off)


@converter("EyeLike", since=9)
def eye_like(ctx: NodeContext) -> SSAValue:
    """Ones on diagonal ``k`` of a matrix shaped like the input, of ``dtype``
    (default the input's)."""
    x = ctx.input(0)
    dtype = ctx.attr("dtype", None)
    return ctx.emit(
        "relax.eye_like",
        x,
        ctx.attr("k", 0),
        dtype=data_type(ctx, x) if dtype is None else onnx_data_type(ctx, dtype),
    )
