"""Pad: constant, reflect, edge and wrap padding (``relax.nn.pad``); CenterCropPad.

Until opset 11 the widths and the value are attributes; from then on inputs
(known at import time), with opset 18's optional ``axes`` naming the padded
axes."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Call, call
from ..context import NodeContext
from .registry import converter
from .values import (
    constant_input,
    constant_ints,
    emit,
    known_shape,
    normalized_axis,
    static_dim,
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


@converter("CenterCropPad", since=18)
def center_crop_pad(ctx: NodeContext) -> SSAValue:
    """Each of ``axes`` (default all) cropped or padded with zeros to the
    length ``shape`` gives it, centred (the odd element after the data)."""
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    targets = constant_ints(ctx, 1, "the shape")
    axes = [normalized_axis(ctx, a, len(dims)) for a in ctx.attr("axes", range(len(targets)))]
    if len(axes) != len(targets):
        ctx.error(f"shape has {len(targets)} values for {len(axes)} axes")
    crops: list[tuple[int, int, int]] = []
    width = [0] * (2 * len(dims))
    for axis, target in zip(axes, targets, strict=True):
        size = static_dim(ctx, dims[axis], f"centring axis {axis}")
        if target < size:
            start = (size - target) // 2
            crops.append((axis, start, start + target))
        else:
            width[2 * axis] = (target - size) // 2
            width[2 * axis + 1] = target - size - (target - size) // 2
    result: SSAValue | Call = x
    if crops:
        axes_, begins, ends = (list(column) for column in zip(*crops, strict=True))
        result = call("relax.strided_slice", result, axes_, begins, ends)
    if any(width):
        result = call("relax.nn.pad", result, pad_width=width)
    return emit(ctx, result) if isinstance(result, Call) else result
