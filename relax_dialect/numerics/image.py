"""Kernels of the image operators, with ``topi.image.resize2d``'s numerics:
coordinates and interpolation in ``float32``, interpolating the width first,
then the height (so a separable pass per axis computes the same sums)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..ops.image import Resize2DOp, ResizeSettings
from ..ops.operator import OperatorOp
from ..values import ShapeValue
from . import evaluates
from .common import Kernel, result_form
from .convolution import from_canonical, to_canonical

F32 = np.float32
EPSILON = F32(1e-5)

ROUNDINGS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "round": np.rint,
    "round_prefer_floor": lambda x: np.ceil(x - F32(0.5)),
    "round_prefer_ceil": lambda x: np.floor(x + F32(0.5)),
    "floor": lambda x: np.floor(x + EPSILON),
    "ceil": lambda x: np.ceil(x - EPSILON),
}


def source_coordinates(
    settings: ResizeSettings, size: int, target: int, start: float, end: float
) -> np.ndarray:
    """The input coordinate of each output index along an axis (TVM's
    ``get_inx``); ``align_corners`` to a single row maps it to 0, where TVM
    divides by zero."""
    x = np.arange(target, dtype=F32)
    scale = F32(size) / F32(target)
    mode = settings.coordinate_transformation_mode
    if mode == "half_pixel" or (mode == "pytorch_half_pixel" and target > 1):
        return (x + F32(0.5)) * scale - F32(0.5)
    if mode == "pytorch_half_pixel":
        return np.zeros(target, F32)
    if mode == "asymmetric":
        return scale * x
    if mode == "tf_half_pixel_for_nn":
        return (x + F32(0.5)) * scale
    if mode == "tf_crop_and_resize":
        if target == 1:
            return np.full(1, F32(0.5) * (F32(start) + F32(end)) * F32(size - 1), F32)
        step = x * (F32(end) - F32(start)) * F32(size - 1) / F32(target - 1)
        return F32(start) * F32(size - 1) + step
    if target == 1:
        return np.zeros(1, F32)
    return F32(size - 1) / F32(target - 1) * x


def _cubic_weights(fraction: np.ndarray, alpha: float) -> list[np.ndarray]:
    a, t, t2, t3 = F32(alpha), fraction, fraction * fraction, fraction * fraction * fraction
    return [
        a * (t3 - F32(2) * t2 + t),
        (a + F32(2)) * t3 - (F32(3) + a) * t2 + F32(1),
        -(a + F32(2)) * t3 + (F32(3) + F32(2) * a) * t2 - a * t,
        -a * t3 + a * t2,
    ]


def resize_axis(
    x: np.ndarray, axis: int, coordinates: np.ndarray, settings: ResizeSettings
) -> np.ndarray:
    """Interpolate ``float32`` data along ``axis`` at the given input coordinates."""
    size = x.shape[axis]
    shape = [-1 if a == axis else 1 for a in range(x.ndim)]

    def pixels(index: np.ndarray) -> np.ndarray:
        return np.take(x, np.clip(index, 0, size - 1), axis=axis)

    if settings.method == "nearest_neighbor":
        rounding = settings.rounding_method or (
            "round" if settings.coordinate_transformation_mode == "align_corners" else "floor"
        )
        return pixels(ROUNDINGS[rounding](coordinates).astype(np.int64))
    base = np.floor(coordinates)
    index = base.astype(np.int64)
    fraction = coordinates - base
    if settings.method == "linear":
        t = fraction.reshape(shape)
        return pixels(index) * (F32(1) - t) + pixels(index + 1) * t
    weights = _cubic_weights(fraction, settings.cubic_alpha)
    if settings.cubic_exclude:
        for tap in range(4):
            outside = (index - 1 + tap < 0) | (index + tap > size)
            weights[tap] = np.where(outside, F32(0), weights[tap])
        total = weights[0] + weights[1] + weights[2] + weights[3]
        weights = [w / total for w in weights]
    value = pixels(index - 1) * weights[0].reshape(shape)
    for tap in range(1, 4):
        value = value + pixels(index + tap - 1) * weights[tap].reshape(shape)
    return value


@evaluates(Resize2DOp)
def _resize2d(op: OperatorOp) -> Kernel:
    assert isinstance(op, Resize2DOp)
    settings = op.settings()
    canonical = op.CANONICAL_LAYOUT
    start_h, start_w, end_h, end_w = settings.roi
    crop = settings.coordinate_transformation_mode == "tf_crop_and_resize"
    form = result_form(op)

    def apply(data: np.ndarray, size: ShapeValue) -> object:
        x = to_canonical(data, settings.layout, canonical).astype(F32)
        height, width = x.shape[2:]
        rows = source_coordinates(settings, height, size.dims[0], start_h, end_h)
        columns = source_coordinates(settings, width, size.dims[1], start_w, end_w)
        x = resize_axis(x, 3, columns, settings)
        x = resize_axis(x, 2, rows, settings)
        if crop:
            outside_rows = (rows < 0) | (rows > height - 1)
            outside_columns = (columns < 0) | (columns > width - 1)
            outside = outside_rows[:, None] | outside_columns[None, :]
            x = np.where(outside, F32(settings.extrapolation_value), x)
        return form(from_canonical(x, settings.layout, canonical))

    return apply
