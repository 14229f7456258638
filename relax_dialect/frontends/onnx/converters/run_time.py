"""Shapes, axes and bounds given as tensors whose values are known only when the
model runs (a graph input, a computation on data): the converters compute what
they need from them with tensor operators, as ``int64`` vectors turned into
shapes by ``relax.tensor_to_shape``. The results keep their rank; their
dimensions are known at run time."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ..context import NodeContext
from ..dtypes import data_type

INT64 = data_type(7)
INT64_MAX = int(np.iinfo(np.int64).max)


def vector(ctx: NodeContext, values: list[int] | np.ndarray) -> SSAValue:
    """A constant ``int64`` vector."""
    return ctx.const(np.asarray(values, np.int64).reshape(-1))


def as_int64(ctx: NodeContext, value: SSAValue) -> SSAValue:
    """An integer tensor as ``int64``."""
    return value if ctx.dtype(value) == "int64" else ctx.emit("relax.astype", value, dtype=INT64)


def dims_of(ctx: NodeContext, x: SSAValue) -> SSAValue:
    """The dimensions of ``x`` as an ``int64`` vector."""
    return ctx.emit("relax.shape_to_tensor", ctx.emit("relax.shape_of", x))


def length(ctx: NodeContext, vector_value: SSAValue, what: str) -> int:
    """The static length of a 1-D tensor (``unsupported`` when unknown)."""
    dims = ctx.shape(vector_value)
    if dims is None or len(dims) != 1 or not isinstance(dims[0], int):
        ctx.unsupported(f"{what} of a length known only at run time is not supported")
    return dims[0]


def static_rank(ctx: NodeContext, x: SSAValue) -> int:
    """The rank of ``x`` (``unsupported`` when unknown)."""
    rank = ctx.rank(x)
    if rank is None:
        ctx.unsupported("a tensor of unknown rank with run-time bounds is not supported")
    return rank


def normalised(ctx: NodeContext, axes: SSAValue, rank: int) -> SSAValue:
    """Axes counted from the end (negative) made positive, for a tensor of ``rank``."""
    axes = as_int64(ctx, axes)
    negative = ctx.emit("relax.less", axes, ctx.const(0, "int64"))
    return ctx.emit(
        "relax.where", negative, ctx.emit("relax.add", axes, ctx.const(rank, "int64")), axes
    )


def scattered(ctx: NodeContext, base: list[int], axes: SSAValue, values: SSAValue) -> SSAValue:
    """The vector ``base`` with ``values`` written at the positions ``axes``."""
    return ctx.emit("relax.scatter_elements", vector(ctx, base), axes, as_int64(ctx, values))


def membership(ctx: NodeContext, axes: SSAValue, count: int) -> SSAValue:
    """For each position below ``count``, how many of ``axes`` name it (``int64``)."""
    positions = ctx.const(np.arange(count, dtype=np.int64).reshape(count, 1))
    rows = ctx.emit("relax.expand_dims", axes, axis=[0])
    hits = ctx.emit("relax.astype", ctx.emit("relax.equal", positions, rows), dtype=INT64)
    return ctx.emit("relax.sum", hits, axis=[1])


def reshaped(ctx: NodeContext, x: SSAValue, dims: SSAValue) -> SSAValue:
    """``x`` reshaped to the run-time dimensions ``dims``."""
    return ctx.emit("relax.reshape", x, ctx.emit("relax.tensor_to_shape", dims))
