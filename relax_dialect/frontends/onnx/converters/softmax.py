"""Softmax, LogSoftmax and Hardmax. Before opset 13 they work on the input
coerced to 2-D: every axis from ``axis`` (default 1) on is flattened into one;
from opset 13 they work along ``axis`` (default -1) alone."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import SSAValue

from ....builder import Shape, call
from ..context import NodeContext
from .registry import converter
from .values import (
    data_type,
    known_shape,
    normalized_axis,
    positions,
    product,
)

AlongAxis = Callable[[NodeContext, SSAValue, int], SSAValue]
"""A function applied along one axis of a tensor."""


def _along_axis(ctx: NodeContext, function: AlongAxis) -> SSAValue:
    """``function`` along the ``axis`` attribute (default -1)."""
    return function(ctx, ctx.input(0), ctx.attr("axis", -1))


def _coerced_2d(ctx: NodeContext, function: AlongAxis) -> SSAValue:
    """``function`` along the axes from ``axis`` (default 1) on, flattened."""
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    axis = normalized_axis(ctx, ctx.attr("axis", 1), max(len(dims), 1))
    if axis == len(dims) - 1:
        return function(ctx, x, -1)
    flat = ctx.emit("relax.reshape", x, Shape((product(dims[:axis]), product(dims[axis:]))))
    return ctx.emit("relax.reshape", function(ctx, flat, 1), Shape(tuple(dims)))


def _softmax(ctx: NodeContext, x: SSAValue, axis: int) -> SSAValue:
    return ctx.emit("relax.nn.softmax", x, axis=axis)


def _log_softmax(ctx: NodeContext, x: SSAValue, axis: int) -> SSAValue:
    return ctx.emit("relax.nn.log_softmax", x, axis=axis)


def _hardmax(ctx: NodeContext, x: SSAValue, axis: int) -> SSAValue:
    """1 at the first largest element along ``axis``, 0 elsewhere."""
    dims = known_shape(ctx, x)
    axis = normalized_axis(ctx, axis, len(dims))
    largest = call("relax.argmax", x, axis=axis, keepdims=True)
    first = call("relax.equal", positions(dims[axis], len(dims), axis), largest)
    return ctx.emit("relax.astype", first, dtype=data_type(ctx, x))


for _op_type, _function in (
    ("Softmax", _softmax),
    ("LogSoftmax", _log_softmax),
    ("Hardmax", _hardmax),
):
    converter(_op_type, since=1)(lambda ctx, f=_function: _coerced_2d(ctx, f))
    converter(_op_type, since=13)(lambda ctx, f=_function: _along_axis(ctx, f))
