"""Tensors built from an input's shape or values: Trilu, OneHot, EyeLike."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import INT64
from ..context import NodeContext
from .registry import converter
from .values import (
    data_type,
    dimension_tensor,
    known_shape,
    normalized_axis,
    onnx_data_type,
    positions,
    runtime_dim,
    scalar,
)


@converter("Trilu", since=14)
def trilu(ctx: NodeContext) -> SSAValue:
    """The upper (default) or lower triangle from diagonal ``k`` (default 0);
    a ``k`` known only at run time keeps the elements whose ``column - row``
    is on the kept side of it."""
    x = ctx.input(0)
    upper = bool(ctx.attr("upper", 1))
    k = ctx.scalar_value(1) if ctx.has_input(1) else 0
    if k is not None:
        return ctx.emit("relax.triu" if upper else "relax.tril", x, k)
    dims = known_shape(ctx, x)
    if len(dims) < 2:
        ctx.error(f"the input has rank {len(dims)}, expected at least 2")
    rows, columns = dims[-2:]
    offsets = call("relax.subtract", positions(columns, 2, 1), positions(rows, 2, 0))
    diagonal = call("relax.reshape", call("relax.astype", ctx.input(1), dtype=INT64), Shape(()))
    kept = call("relax.greater_equal" if upper else "relax.less_equal", offsets, diagonal)
    return ctx.emit("relax.where", kept, x, scalar(ctx, 0, x))


@converter("OneHot", since=9)
def one_hot(ctx: NodeContext) -> SSAValue:
    """``values[1]`` where a new axis ``axis`` of ``depth`` positions matches
    the index (negative ones count from ``depth``), ``values[0]`` elsewhere; a
    ``depth`` known only at run time becomes a symbolic length."""
    indices: SSAValue | Call = ctx.input(0)
    if data_type(ctx, ctx.input(0)) != INT64:
        indices = call("relax.astype", indices, dtype=INT64)
    depth = runtime_dim(ctx, 1, "depth")
    rank = len(known_shape(ctx, ctx.input(0)))
    axis = normalized_axis(ctx, ctx.attr("axis", -1), rank + 1)
    wrapped = call(
        "relax.where",
        call("relax.less", indices, np.array(0, np.int64)),
        call("relax.add", indices, dimension_tensor(depth)),
        indices,
    )
    expanded = call("relax.expand_dims", wrapped, axis=[axis])
    hot = call("relax.equal", expanded, positions(depth, rank + 1, axis))
    values = ctx.input(2)
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
