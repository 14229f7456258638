"""Kernels of the image operators. ``resize2d`` has ``topi.image.resize2d``'s
numerics: coordinates and interpolation in ``float32``, interpolating the width
first, then the height (so a separable pass per axis computes the same sums).
``grid_sample`` has ``topi.image.grid_sample``'s: per output pixel, in the data's
floating-point type, with TVM's order of operations."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..ops.image import GridSampleOp, GridSampleSettings, Resize2DOp, ResizeSettings
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


BICUBIC_A = -0.75
"""The bicubic kernel's parameter ``topi.image.grid_sample`` uses (PyTorch's)."""


def scaled(position: np.ndarray, size: int, align_corners: bool) -> np.ndarray:
    """A grid position in [-1, 1] scaled to an axis of ``size`` pixels: its distance
    from the first pixel's centre (``align_corners``) or outer edge."""
    span = size - 1 if align_corners else size
    kind = position.dtype.type
    return (position + kind(1)) * kind(span) / kind(2)


def edge_offset(align_corners: bool) -> float:
    """The coordinate of the image's first edge: -0.5, or 0 with ``align_corners``."""
    return 0.0 if align_corners else -0.5


def unnormalize(position: np.ndarray, size: int, align_corners: bool) -> np.ndarray:
    """The pixel coordinate of a grid position in [-1, 1] along an axis of ``size``."""
    distance = scaled(position, size, align_corners)
    return distance if align_corners else position.dtype.type(-0.5) + distance


def reflect(x: np.ndarray, distance: np.ndarray, size: int, align_corners: bool) -> np.ndarray:
    """Coordinates ``x`` mirrored into the image at its borders (the pixel centres
    with ``align_corners``, else the outer edges); ``distance`` is ``|x - start|``,
    the distance from the first border, computed as TVM simplifies it."""
    kind = x.dtype.type
    start = kind(edge_offset(align_corners))
    span = kind(size - 1 if align_corners else size)
    periods = distance.astype(np.int32) // max(int(span), 1)
    extra = distance - (periods * span).astype(x.dtype)
    mirrored = np.where(periods % 2 == 0, extra + start, span - extra + start)
    return np.where((x >= start) & (x <= span + start), x, mirrored)


def clamp(x: np.ndarray, size: int) -> np.ndarray:
    return np.minimum(np.maximum(x, x.dtype.type(0)), x.dtype.type(size - 1))


def pad_coordinate(
    x: np.ndarray, distance: np.ndarray, size: int, settings: GridSampleSettings
) -> np.ndarray:
    """A coordinate after the padding mode: clamped (``border``), mirrored then
    clamped (``reflection``) or unchanged (``zeros``); ``distance`` as ``reflect``'s."""
    if settings.padding_mode == "reflection":
        x = reflect(x, distance, size, settings.align_corners)
    return x if settings.padding_mode == "zeros" else clamp(x, size)


def _bicubic_weights(fraction: np.ndarray) -> list[np.ndarray]:
    kind, a = fraction.dtype.type, BICUBIC_A

    def near(t: np.ndarray) -> np.ndarray:
        return (kind(a + 2) * t - kind(a + 3)) * t * t + kind(1)

    def far(t: np.ndarray) -> np.ndarray:
        return ((kind(a) * t - kind(5 * a)) * t + kind(8 * a)) * t - kind(4 * a)

    return [
        far(fraction + kind(1)),
        near(fraction),
        near(kind(1) - fraction),
        far(kind(2) - fraction),
    ]


def _weighted(terms: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    total = terms[0][0] * terms[0][1]
    for pixel, weight in terms[1:]:
        total = total + pixel * weight
    return total


def grid_sample(x: np.ndarray, grid: np.ndarray, settings: GridSampleSettings) -> np.ndarray:
    """Sample ``NCHW`` data ``x`` at the ``[N, 2, H_out, W_out]`` grid's positions,
    computing in the (floating-point) type of both."""
    height, width = x.shape[2:]
    batch = np.arange(x.shape[0])[:, None, None]

    def pixel(row: np.ndarray, column: np.ndarray) -> np.ndarray:
        """The pixels at integer positions (0 outside the image), ``[N, C, H_out, W_out]``."""
        inside = (row >= 0) & (row < height) & (column >= 0) & (column < width)
        values = x[batch, :, np.clip(row, 0, height - 1), np.clip(column, 0, width - 1)]
        return np.where(inside[..., None], values, 0).transpose(0, 3, 1, 2)

    align = settings.align_corners
    y_distance, x_distance = scaled(grid[:, 1], height, align), scaled(grid[:, 0], width, align)
    y = unnormalize(grid[:, 1], height, align)
    x_ = unnormalize(grid[:, 0], width, align)
    if settings.method == "bicubic":
        return _bicubic(pixel, y, x_, (height, width), settings)
    y = pad_coordinate(y, np.abs(y_distance), height, settings)
    x_ = pad_coordinate(x_, np.abs(x_distance), width, settings)
    if settings.method == "nearest":
        return pixel(np.rint(y).astype(np.int32), np.rint(x_).astype(np.int32))
    y_floor, x_floor = np.floor(y), np.floor(x_)
    y0, x0 = y_floor.astype(np.int32), x_floor.astype(np.int32)
    dy, dx = (y - y_floor)[:, None], (x_ - x_floor)[:, None]
    one = dy.dtype.type(1)
    return (
        pixel(y0, x0) * (one - dy) * (one - dx)
        + pixel(y0, x0 + 1) * (one - dy) * dx
        + pixel(y0 + 1, x0) * dy * (one - dx)
        + pixel(y0 + 1, x0 + 1) * dy * dx
    )


def _bicubic(
    pixel: Callable[[np.ndarray, np.ndarray], np.ndarray],
    y: np.ndarray,
    x: np.ndarray,
    sizes: tuple[int, int],
    settings: GridSampleSettings,
) -> np.ndarray:
    """Bicubic sampling over the 4x4 taps around each position; the padding mode
    applies to the taps."""
    y_floor, x_floor = np.floor(y), np.floor(x)
    y0, x0 = y_floor.astype(np.int32), x_floor.astype(np.int32)

    def taps(start: np.ndarray, size: int) -> list[np.ndarray]:
        found = [start + offset for offset in (-1, 0, 1, 2)]
        if settings.padding_mode == "zeros":
            return found
        start = y.dtype.type(edge_offset(settings.align_corners))
        coordinates = [t.astype(y.dtype) for t in found]
        return [
            pad_coordinate(t, np.abs(start - t), size, settings).astype(np.int32)
            for t in coordinates
        ]

    rows, columns = taps(y0, sizes[0]), taps(x0, sizes[1])
    across = _bicubic_weights((x - x_floor)[:, None])
    down = _bicubic_weights((y - y_floor)[:, None])
    lines = [
        _weighted([(pixel(r, c), w) for c, w in zip(columns, across, strict=True)]) for r in rows
    ]
    return _weighted(list(zip(lines, down, strict=True)))


@evaluates(GridSampleOp)
def _grid_sample(op: OperatorOp) -> Kernel:
    assert isinstance(op, GridSampleOp)
    settings = op.settings()
    canonical = op.CANONICAL_LAYOUT
    form = result_form(op)

    def apply(data: np.ndarray, grid: np.ndarray) -> object:
        x = to_canonical(data, settings.layout, canonical)
        kind = x.dtype if np.issubdtype(x.dtype, np.floating) else np.dtype(F32)
        sampled = grid_sample(x.astype(kind), grid.astype(kind), settings)
        return form(from_canonical(sampled.astype(data.dtype), settings.layout, canonical))

    return apply
