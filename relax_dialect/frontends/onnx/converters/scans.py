"""CumSum, CumProd and TopK: operators along one axis given by an input."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from ....builder import call
from ....dtype import INT64
from ..context import NodeContext
from .data_dependent import topk_of_tensor_k
from .registry import converter
from .values import constant_int, emit


def _running(ctx: NodeContext, op: str) -> SSAValue:
    """The running ``op`` (``relax.cumsum`` or ``relax.cumprod``) along ``axis``;
    ``exclusive`` leaves each element out of its own total, ``reverse`` runs
    from the end (the data flipped, scanned and flipped back). The axis must be
    known at import time, unless the data is 1-D: a valid axis can then only
    name its one axis."""
    data = ctx.input(0)
    sole = ctx.rank(data) == 1 and ctx.constant(1) is None
    axis = 0 if sole else constant_int(ctx, 1, "the axis")
    reverse = bool(ctx.attr("reverse", 0))
    if reverse:
        data = call("relax.flip", data, axis=axis)
    total = call(op, data, axis=axis, exclusive=bool(ctx.attr("exclusive", 0)))
    if reverse:
        return ctx.emit("relax.flip", total, axis=axis)
    return emit(ctx, total)


@converter("CumSum", since=11)
def cumsum(ctx: NodeContext) -> SSAValue:
    return _running(ctx, "relax.cumsum")


@converter("CumProd", since=26)
def cumprod(ctx: NodeContext) -> SSAValue:
    return _running(ctx, "relax.cumprod")


@converter("TopK", since=1)
def topk(ctx: NodeContext) -> Sequence[SSAValue]:
    """The ``k`` largest (or smallest) elements along ``axis``, sorted, with
    their ``i64`` indices (opset 1's ``k`` is an attribute; a ``k`` known only
    at run time gives results of a symbolic length)."""
    k = ctx.attr("k") if ctx.opset < 10 else ctx.scalar_value(1)
    if not isinstance(k, int):
        return topk_of_tensor_k(ctx, ctx.input(0), ctx.input(1))
    if k < 1:
        ctx.unsupported(f"k = {k} (an empty result) is not supported")
    both = ctx.emit(
        "relax.topk",
        ctx.input(0),
        k=k,
        axis=ctx.attr("axis", -1),
        largest=bool(ctx.attr("largest", 1)),
        dtype=INT64,
    )
    return [ctx.builder.tuple_get_item(both, 0), ctx.builder.tuple_get_item(both, 1)]
