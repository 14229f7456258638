"""Resize and Upsample, with ONNX's interpolation exactly: each resized axis
reads, for every output position, a few input positions (clamped to the
edges) weighted by coefficients that depend on the mode, the coordinate
transformation and the scale; both are computed at import time, so the
resized axes need known sizes (the others may be symbolic). A position that
reads one input position with weight 1 (nearest, integer scales) is a
``relax.take``; otherwise the taps are gathered, weighted and summed.

Opset 10's Resize and Upsample have ``scales`` only and transform coordinates
asymmetrically; opset 11 adds ``roi``, ``sizes`` and the attributes; opset 18
``axes``, ``keep_aspect_ratio_policy`` and ``antialias``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....prim_expr import PrimExpr
from ..context import NodeContext
from .registry import converter
from .values import (
    constant_input,
    emit,
    known_shape,
    normalized_axis,
    numpy_dtype,
    static_dim,
)

MODES = ("nearest", "linear", "cubic")
COORDINATE_MODES = (
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
)
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
POLICIES = ("stretch", "not_larger", "not_smaller")


@dataclass(frozen=True)
class Interpolation:
    """A node's interpolation attributes."""

    mode: str
    coordinate_mode: str
    nearest_mode: str
    cubic_coeff_a: float
    exclude_outside: bool
    antialias: bool

    def sources(
        self, size: int, target: int, scale: float, roi: tuple[float, float]
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """The input coordinate of each output position, and (cropping) which
        ones fall outside the input."""
        y = np.arange(target, dtype=np.float64)
        width = scale * size  # the output width before rounding
        mode = self.coordinate_mode
        if mode == "align_corners":
            return (np.zeros(target) if width == 1 else y * (size - 1) / (width - 1)), None
        if mode == "asymmetric":
            return y / scale, None
        if mode == "tf_half_pixel_for_nn":
            return (y + 0.5) / scale, None
        if mode == "tf_crop_and_resize":
            start, end = roi
            if width == 1:
                x = np.full(target, (end - start) * (size - 1) / 2)
            else:
                x = y * (end - start) * (size - 1) / (width - 1)
            x = x + start * (size - 1)
            return x, (x < 0) | (x > size - 1)
        if mode == "pytorch_half_pixel" and width == 1:
            return np.full(target, -0.5), None
        offset = 0.0
        if mode == "half_pixel_symmetric":
            offset = size / 2 * (1 - target / width)
        return offset + (y + 0.5) / scale - 0.5, None

    def coefficients(self, ratio: float, scale: float) -> np.ndarray:
        """The weights of the taps around a coordinate ``ratio`` past the
        left one (in ``(0, 1]``)."""
        if self.mode == "nearest":
            if ratio == 1:
                return np.array([0.0, 1.0])
            pick_right = {
                "round_prefer_floor": ratio > 0.5,
                "round_prefer_ceil": ratio >= 0.5,
                "floor": False,
                "ceil": True,
            }[self.nearest_mode]
            return np.array([0.0, 1.0] if pick_right else [1.0, 0.0])
        shrink = min(scale, 1.0) if self.antialias else 1.0
        reach = 1 if self.mode == "linear" else 2
        start = math.floor(-reach / shrink) + 1
        distances = np.abs((np.arange(start, 2 - start) - ratio) * shrink)
        if self.mode == "linear":
            weights = np.clip(1 - distances, 0, 1)
        else:
            a = self.cubic_coeff_a
            near = ((a + 2) * distances - (a + 3)) * distances**2 + 1
            far = ((a * distances - 5 * a) * distances + 8 * a) * distances - 4 * a
            weights = np.where(distances <= 1, near, np.where(distances < 2, far, 0.0))
        return weights / weights.sum()

    def taps(
        self, size: int, target: int, scale: float, roi: tuple[float, float]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """For each output position: the input positions read, their weights,
        and whether it is outside the input (cropping)."""
        x, outside = self.sources(size, target, scale, roi)
        left = np.floor(x)
        ratios = np.where(x == left, 1.0, x - left)
        weights = np.stack([self.coefficients(float(r), scale) for r in ratios])
        count = weights.shape[1]
        # the ``count`` positions nearest to x, the smaller one on ties
        pad = math.ceil(count / 2)
        padded = x + pad
        base = np.floor(padded)
        fraction = padded - base
        if count % 2 == 0:
            offset = np.where(fraction == 0, -(count // 2), 1 - count // 2)
        else:
            offset = np.where(fraction <= 0.5, -((count - 1) // 2), 1 - (count - 1) // 2)
        positions = (base + offset - pad).astype(np.int64)[:, None] + np.arange(count)
        if self.exclude_outside:
            weights = np.where((positions < 0) | (positions >= size), 0.0, weights)
            totals = weights.sum(axis=1, keepdims=True)
            weights = weights / np.where(totals == 0, 1.0, totals)
        return np.clip(positions, 0, size - 1), weights, outside


def _choice(ctx: NodeContext, name: str, default: str, choices: tuple[str, ...]) -> str:
    value = ctx.attr(name, default)
    if value not in choices:
        ctx.error(f"{name} must be one of {', '.join(choices)}, got '{value}'")
    return value


def _interpolation(ctx: NodeContext, coordinate_default: str) -> Interpolation:
    mode = _choice(ctx, "mode", "nearest", MODES)
    antialias = bool(ctx.attr("antialias", 0))
    if antialias and mode == "nearest":
        ctx.error("antialias applies to linear and cubic modes only")
    return Interpolation(
        mode=mode,
        coordinate_mode=_choice(
            ctx, "coordinate_transformation_mode", coordinate_default, COORDINATE_MODES
        ),
        nearest_mode=_choice(ctx, "nearest_mode", "round_prefer_floor", NEAREST_MODES),
        cubic_coeff_a=ctx.attr("cubic_coeff_a", -0.75),
        exclude_outside=bool(ctx.attr("exclude_outside", 0)),
        antialias=antialias,
    )


def _resize_axis(
    ctx: NodeContext,
    x: SSAValue,
    dims: list[PrimExpr],
    axis: int,
    target: int,
    scale: float,
    roi: tuple[float, float],
    interpolation: Interpolation,
) -> tuple[SSAValue, list[PrimExpr]]:
    """``x`` resized along ``axis`` to ``target`` positions; its new dimensions."""
    size = static_dim(ctx, dims[axis], f"resizing axis {axis}")
    positions, weights, outside = interpolation.taps(size, target, scale, roi)
    resized = [*dims[:axis], target, *dims[axis + 1 :]]
    single = (weights == 1.0).sum(axis=1) == 1
    if single.all():
        chosen = positions[np.arange(target), weights.argmax(axis=1)]
        result: Call | SSAValue = call("relax.take", x, chosen, axis=axis)
    else:
        dtype = numpy_dtype(ctx, x)
        gathered = call("relax.take", x, positions.reshape(-1), axis=axis)
        gathered = call(
            "relax.reshape",
            gathered,
            Shape((*dims[:axis], target, weights.shape[1], *dims[axis + 1 :])),
        )
        trailing = (1,) * (len(dims) - axis - 1)
        weighted = call(
            "relax.multiply", gathered, weights.reshape(target, -1, *trailing).astype(dtype)
        )
        result = call("relax.sum", weighted, axis=[axis + 1])
    if outside is not None and outside.any():
        trailing = (1,) * (len(dims) - axis - 1)
        fill = np.array(ctx.attr("extrapolation_value", 0.0), dtype=numpy_dtype(ctx, x))
        result = call("relax.where", outside.reshape(target, *trailing), fill, result)
    return (emit(ctx, result) if isinstance(result, Call) else result), resized


def _resize(
    ctx: NodeContext,
    interpolation: Interpolation,
    scales: np.ndarray | None,
    sizes: list[int] | None,
    roi: np.ndarray | None,
    axes: list[int] | None,
) -> SSAValue:
    """Resize to ``sizes`` or by ``scales`` along ``axes`` (default all)."""
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    rank = len(dims)
    axes = list(range(rank)) if axes is None else [normalized_axis(ctx, a, rank) for a in axes]
    if len(set(axes)) != len(axes):
        ctx.error(f"axes {axes} repeat an axis")
    given = scales if sizes is None else sizes
    if given is None or len(given) != len(axes):
        ctx.error(f"give scales or sizes with one value per resized axis ({len(axes)})")
    if roi is not None and roi.size and roi.size != 2 * len(axes):
        ctx.error(f"roi has {roi.size} values, expected {2 * len(axes)}")
    windows = [(0.0, 1.0)] * len(axes)
    if roi is not None and roi.size:
        windows = [(float(roi[i]), float(roi[len(axes) + i])) for i in range(len(axes))]
    if sizes is None:
        factors = [float(s) for s in scales]  # type: ignore[union-attr]
        # an axis kept as it is may be symbolic
        kept = [
            math.isclose(f, 1.0) and w == (0.0, 1.0) for f, w in zip(factors, windows, strict=True)
        ]
        targets = [
            None if keep else int(f * static_dim(ctx, dims[a], f"resizing axis {a}"))
            for a, f, keep in zip(axes, factors, kept, strict=True)
        ]
    else:
        inputs = [static_dim(ctx, dims[a], f"resizing axis {a}") for a in axes]
        factors = [t / n for t, n in zip(sizes, inputs, strict=True)]
        targets = list(sizes)
        policy = _choice(ctx, "keep_aspect_ratio_policy", "stretch", POLICIES)
        if policy != "stretch":
            shared = min(factors) if policy == "not_larger" else max(factors)
            factors = [shared] * len(axes)
            targets = [int(shared * n + 0.5) for n in inputs]
        kept = [
            math.isclose(f, 1.0) and t == n and w == (0.0, 1.0)
            for f, t, n, w in zip(factors, targets, inputs, windows, strict=True)
        ]
    for axis, factor, target, window, keep in zip(
        axes, factors, targets, windows, kept, strict=True
    ):
        if not keep:
            x, dims = _resize_axis(ctx, x, dims, axis, target, factor, window, interpolation)
    return x


def _optional_constant(ctx: NodeContext, index: int, what: str) -> np.ndarray | None:
    """Input ``index`` known at import time; None when absent or empty."""
    if ctx.optional_input(index) is None:
        return None
    value = constant_input(ctx, index, what)
    return value if value.size else None


@converter("Upsample", since=7)
@converter("Resize", since=10)
def resize_by_scales(ctx: NodeContext) -> SSAValue:
    """Opset 10's Resize, and Upsample: ``scales`` (an attribute until
    Upsample's opset 9), asymmetric coordinates, nearest rounding down."""
    if ctx.op_type == "Upsample" and ctx.opset < 9:
        scales = np.array(ctx.attr("scales"), dtype=np.float64)
    else:
        scales = constant_input(ctx, 1, "the scales")
    interpolation = Interpolation(
        mode=_choice(ctx, "mode", "nearest", ("nearest", "linear")),
        coordinate_mode="asymmetric",
        nearest_mode="floor",
        cubic_coeff_a=-0.75,
        exclude_outside=False,
        antialias=False,
    )
    return _resize(ctx, interpolation, scales.reshape(-1), None, None, None)


@converter("Resize", since=11)
def resize(ctx: NodeContext) -> SSAValue:
    interpolation = _interpolation(ctx, "half_pixel")
    roi = _optional_constant(ctx, 1, "the roi")
    scales = _optional_constant(ctx, 2, "the scales")
    sizes = _optional_constant(ctx, 3, "the sizes")
    if (scales is None) == (sizes is None):
        ctx.error("give exactly one of scales and sizes")
    axes = ctx.attr("axes", None)
    return _resize(
        ctx,
        interpolation,
        None if scales is None else scales.reshape(-1),
        None if sizes is None else [int(s) for s in sizes.reshape(-1)],
        roi,
        None if axes is None else list(axes),
    )
