"""Gathers and scatters by index tensors: ``GatherElements``, ``GatherND``,
``ScatterElements`` (and its predecessor ``Scatter``), ``ScatterND``.

Each is the Relax operator of the same name; negative indices count from the end
in both. ONNX's ``reduction`` ``none`` is Relax's ``update``.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ..context import NodeContext
from .registry import converter
from .values import normalized_axis

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
