"""Reductions (Reduce*) and ArgMax/ArgMin.

The axes of a reduction are an attribute until ReduceSum's opset 13 and the
others' opset 18, an optional input from then on; with no axes every axis is
reduced, unless ``noop_with_empty_axes`` (the input form only) makes the
node the identity."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from xdsl.ir import SSAValue

from ....builder import Call, call
from ..context import NodeContext
from .registry import converter
from .values import (
    constant_ints,
    dimension_tensor,
    emit,
    known_shape,
    normalized_axis,
)

Reduction = Callable[[SSAValue, list[int] | None, bool], Call]
"""Builds a reduction of a tensor over axes (None: all) with keepdims."""


def _reduce(op: str) -> Reduction:
    return lambda x, axes, keepdims: call(op, x, axis=axes, keepdims=keepdims)


def _squares(x: SSAValue) -> Call:
    return call("relax.multiply", x, x)


def _log_sum_exp(x: SSAValue, axes: list[int] | None, keepdims: bool) -> Call:
    """``log(sum(exp(x - m))) + m`` with ``m`` the maximum (finite, so that
    infinite or empty inputs give what the naive formula gives)."""
    largest = call("relax.max", x, axis=axes, keepdims=True)
    finite = call(
        "relax.where", call("relax.isfinite", largest), largest, call("relax.zeros_like", largest)
    )
    shifted = call("relax.exp", call("relax.subtract", x, finite))
    total = call("relax.log", call("relax.sum", shifted, axis=axes, keepdims=keepdims))
    offset = finite if keepdims else call("relax.squeeze", finite, axis=axes)
    return call("relax.add", total, offset)


class OnnxReduction(NamedTuple):
    """How an ONNX reduction is computed, and from which opset its axes are an input."""

    build: Reduction
    axes_input_since: int


def _sum_of(transform: Callable[[SSAValue], Call]) -> Reduction:
    return lambda x, axes, keepdims: call("relax.sum", transform(x), axis=axes, keepdims=keepdims)


def _then(outer: str, reduction: Reduction) -> Reduction:
    return lambda x, axes, keepdims: call(outer, reduction(x, axes, keepdims))


REDUCTIONS = {
    "ReduceSum": OnnxReduction(_reduce("relax.sum"), 13),
    "ReduceMean": OnnxReduction(_reduce("relax.mean"), 18),
    "ReduceMax": OnnxReduction(_reduce("relax.max"), 18),
    "ReduceMin": OnnxReduction(_reduce("relax.min"), 18),
    "ReduceProd": OnnxReduction(_reduce("relax.prod"), 18),
    "ReduceL1": OnnxReduction(_sum_of(lambda x: call("relax.abs", x)), 18),
    "ReduceL2": OnnxReduction(_then("relax.sqrt", _sum_of(_squares)), 18),
    "ReduceSumSquare": OnnxReduction(_sum_of(_squares), 18),
    "ReduceLogSum": OnnxReduction(_then("relax.log", _reduce("relax.sum")), 18),
    "ReduceLogSumExp": OnnxReduction(_log_sum_exp, 18),
}


def _reduction(ctx: NodeContext, axes: list[int] | None, noop_when_empty: bool) -> SSAValue:
    x = ctx.input(0)
    if axes is not None and not axes:
        if noop_when_empty:
            return x
        axes = None
    if axes is not None:
        rank = len(known_shape(ctx, x))
        axes = sorted({normalized_axis(ctx, axis, rank) for axis in axes})
    keepdims = bool(ctx.attr("keepdims", 1))
    return emit(ctx, REDUCTIONS[ctx.op_type].build(x, axes, keepdims))


def _axes_attribute(ctx: NodeContext) -> SSAValue:
    return _reduction(ctx, ctx.attr("axes", None), False)


def _axes_input(ctx: NodeContext) -> SSAValue:
    axes = constant_ints(ctx, 1, "the axes") if ctx.has_input(1) else None
    return _reduction(ctx, axes, bool(ctx.attr("noop_with_empty_axes", 0)))


for _op_type, _reduction_kind in REDUCTIONS.items():
    converter(_op_type, since=1)(_axes_attribute)
    converter(_op_type, since=_reduction_kind.axes_input_since)(_axes_input)


def _index_reduction(ctx: NodeContext) -> SSAValue:
    """ArgMax/ArgMin along ``axis`` (default 0); with ``select_last_index`` the
    last extreme element's index, found in the data reversed along the axis."""
    x = ctx.input(0)
    op = "relax.argmax" if ctx.op_type == "ArgMax" else "relax.argmin"
    dims = known_shape(ctx, x)
    axis = normalized_axis(ctx, ctx.attr("axis", 0), max(len(dims), 1))
    keepdims = bool(ctx.attr("keepdims", 1))
    if not ctx.attr("select_last_index", 0):
        return ctx.emit(op, x, axis=axis, keepdims=keepdims)
    reversed_index = call(op, call("relax.flip", x, axis=axis), axis=axis, keepdims=keepdims)
    return ctx.emit("relax.subtract", dimension_tensor(dims[axis] - 1), reversed_index)


converter("ArgMax", "ArgMin", since=1)(_index_reduction)
