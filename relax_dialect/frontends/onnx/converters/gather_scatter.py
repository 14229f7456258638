"""Gathers and scatters by index tensors: ``GatherElements``, ``GatherND``,
``ScatterElements`` (and its predecessor ``Scatter``), ``ScatterND``, and
``TensorScatter`` (a key/value cache update) as a ``ScatterElements``.

Each is the Relax operator of the same name; negative indices count from the end
in both. ONNX's ``reduction`` ``none`` is Relax's ``update``.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ..context import NodeContext
from .registry import converter
from .values import dimension_tensor, known_shape, normalized_axis, positions

REDUCTIONS = {"none": "update", "add": "add", "mul": "mul", "max": "max", "min": "min"}
"""ONNX's scatter reductions and Relax's names for them."""


def _reduction(ctx: NodeContext) -> str:
    reduction = ctx.attr("reduction", "none")
    if reduction not in REDUCTIONS:
        ctx.error(f"reduction '{reduction}' is not one of {', '.join(REDUCTIONS)}")
    return REDUCTIONS[reduction]


def _axis(ctx: NodeContext, data: SSAValue) -> int:
    """The ``axis`` attribute, normalised when the rank is known."""
    axis = ctx.attr("axis", 0)
    rank = ctx.rank(data)
    return axis if rank is None else normalized_axis(ctx, axis, rank)


@converter("GatherElements", since=11)
def gather_elements(ctx: NodeContext) -> SSAValue:
    data = ctx.input(0)
    return ctx.emit("relax.gather_elements", data, ctx.input(1), axis=_axis(ctx, data))


@converter("GatherND", since=11)
def gather_nd(ctx: NodeContext) -> SSAValue:
    """Indices are ``i64`` in Relax (ONNX's are too)."""
    batch_dims = ctx.attr("batch_dims", 0)
    return ctx.emit("relax.gather_nd", ctx.input(0), ctx.input(1), batch_dims=batch_dims)


@converter("Scatter", since=9)
@converter("ScatterElements", since=11)
def scatter_elements(ctx: NodeContext) -> SSAValue:
    data = ctx.input(0)
    return ctx.emit(
        "relax.scatter_elements",
        data,
        ctx.input(1),
        ctx.input(2),
        axis=_axis(ctx, data),
        reduction=_reduction(ctx),
    )


@converter("ScatterND", since=11)
def scatter_nd(ctx: NodeContext) -> SSAValue:
    return ctx.emit(
        "relax.scatter_nd", ctx.input(0), ctx.input(1), ctx.input(2), reduction=_reduction(ctx)
    )


@converter("TensorScatter", since=24)
def tensor_scatter(ctx: NodeContext) -> SSAValue:
    """The cache with the update written along ``axis`` from each batch's
    ``write_indices`` entry on (0 without them), wrapping around the cache's
    length in ``circular`` mode: a ``relax.scatter_elements`` whose indices are
    the update's positions plus the batch's start."""
    cache, update = ctx.input(0), ctx.input(1)
    mode = ctx.attr("mode", "linear")
    if mode not in ("linear", "circular"):
        ctx.error(f"mode must be 'linear' or 'circular', got '{mode}'")
    dims = known_shape(ctx, update, "the update")
    rank = len(dims)
    if rank < 2:
        ctx.error(f"the cache must be of rank 2 or more (batch, ..., sequence, ...), not {rank}")
    axis = normalized_axis(ctx, ctx.attr("axis", -2), rank)
    if axis == 0:
        ctx.error("axis 0 is the batch, not the sequence")
    indices: Call = positions(dims[axis], rank, axis)
    starts = ctx.optional_input(2)
    if starts is not None:
        per_batch = call("relax.reshape", starts, Shape((dims[0], *[1] * (rank - 1))))
        indices = call("relax.add", indices, per_batch)
    if mode == "circular":
        length = dimension_tensor(known_shape(ctx, cache, "the cache")[axis])
        indices = call("relax.floor_mod", indices, length)
    spread = call("relax.broadcast_to", indices, Shape(tuple(dims)))
    return ctx.emit("relax.scatter_elements", cache, spread, update, axis=axis)
