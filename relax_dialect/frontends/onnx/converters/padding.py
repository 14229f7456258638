"""Pad: constant, reflect, edge and wrap padding (``relax.nn.pad``).

Until opset 11 the widths and the value are attributes; from then on inputs
(known at import time), with opset 18's optional ``axes`` naming the padded
axes."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ..context import NodeContext
from .registry import converter
from .values import (
    constant_input,
    constant_ints,
    known_shape,
    normalized_axis,
)

MODES = {"constant": "constant", "reflect": "reflect", "edge": "replicate", "wrap": "circular"}
"""ONNX's padding modes and Relax's names for them."""


def _pad(ctx: NodeContext, pads: list[int], value: float, axes: list[int] | None) -> SSAValue:
    x = ctx.input(0)
    rank = len(known_shape(ctx, x))
    axes = list(range(rank)) if axes is None else [normalized_axis(ctx, a, rank) for a in axes]
    if len(pads) != 2 * len(axes):
        ctx.error(f"pads has {len(pads)} values, expected {2 * len(axes)} (two per axis)")
    mode = ctx.attr("mode", "constant")
    if mode not in MODES:
        ctx.error(f"mode must be one of {', '.join(MODES)}, got '{mode}'")
    width = [0] * (2 * rank)
    for index, axis in enumerate(axes):
        width[2 * axis] = pads[index]
        width[2 * axis + 1] = pads[len(axes) + index]
    return ctx.emit("relax.nn.pad", x, pad_width=width, pad_mode=MODES[mode], pad_value=value)


@converter("Pad", since=2)
def pad_attributes(ctx: NodeContext) -> SSAValue:
    return _pad(ctx, list(ctx.attr("pads")), float(ctx.attr("value", 0.0)), None)


@converter("Pad", since=11)
def pad_inputs(ctx: NodeContext) -> SSAValue:
    pads = constant_ints(ctx, 1, "the pads")
    value = 0.0
    if ctx.optional_input(2) is not None:
        given = constant_input(ctx, 2, "the constant value")
        value = float(given.reshape(-1)[0]) if given.size else 0.0
    axes = None if ctx.optional_input(3) is None else constant_ints(ctx, 3, "the axes")
    return _pad(ctx, pads, value, axes)
