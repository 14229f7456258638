"""Kernels of the convolutions, and what the pooling and resizing kernels share
with them: layout conversions, padding and sliding windows.

Kernels compute in the canonical layout (``NC`` then the spatial axes) and
convert their operands and result from and to the operator's layouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..ops.convolution import OPERATIONS as CONVOLUTIONS
from ..ops.convolution import (
    ConvolutionOp,
    ConvolutionSettings,
    Layout,
    TransposedConvolutionOp,
    window_count,
)
from ..ops.operator import OperatorOp
from ..prim_expr import IntImm
from . import evaluates
from .common import Kernel, result_dtype, result_form

# --- layouts, padding, windows --------------------------------------------------------


def to_canonical(array: np.ndarray, layout: Layout, canonical: str) -> np.ndarray:
    """``array``, laid out as ``layout``, in the ``canonical`` layout (a split
    axis is merged back: ``NCHW4c`` to ``NCHW`` makes ``C * 4`` channels)."""
    if layout.name == canonical:
        return array
    order: list[int] = []
    shape: list[int] = []
    for axis in canonical:
        parts = [layout.axes.index(a) for a in (axis, axis.lower()) if a in layout.axes]
        order.extend(parts)
        shape.append(prod(array.shape[p] for p in parts))
    return array.transpose(order).reshape(shape)


def from_canonical(array: np.ndarray, layout: Layout, canonical: str) -> np.ndarray:
    """``array``, in the ``canonical`` layout, laid out as ``layout`` (a split
    axis is padded with zeros to a multiple of its inner size)."""
    if layout.name == canonical:
        return array
    widths: list[tuple[int, int]] = []
    split: list[int] = []
    names: list[str] = []
    for axis, size in zip(canonical, array.shape, strict=True):
        factor = layout.factor(axis)
        outer = -(-size // factor)
        widths.append((0, outer * factor - size))
        if axis.lower() in layout.axes:
            split += [outer, factor]
            names += [axis, axis.lower()]
        else:
            split.append(size)
            names.append(axis)
    if any(after for _, after in widths):
        array = np.pad(array, widths)
    return array.reshape(split).transpose([names.index(a) for a in layout.axes])


def pad_spatial(
    array: np.ndarray, before: Sequence[int], after: Sequence[int], value: object = 0
) -> np.ndarray:
    """Pad the spatial axes (all but the first two) with ``value``; a negative
    amount crops instead."""
    crop = tuple(
        slice(max(-b, 0), size - max(-a, 0))
        for b, a, size in zip(before, after, array.shape[2:], strict=True)
    )
    array = array[(slice(None), slice(None), *crop)]
    widths = [(0, 0), (0, 0)] + [(max(b, 0), max(a, 0)) for b, a in zip(before, after, strict=True)]
    if not any(b or a for b, a in widths):
        return array
    return np.pad(array, widths, constant_values=value)  # pyright: ignore[reportArgumentType]


def windows(
    array: np.ndarray,
    window: Sequence[int],
    strides: Sequence[int],
    dilation: Sequence[int],
    counts: Sequence[int],
) -> np.ndarray:
    """The first ``counts`` sliding windows over the spatial axes of (padded)
    ``NC...`` data, as a view of shape ``(N, C, *counts, *window)``."""
    counts = [max(c, 0) for c in counts]
    if 0 in counts:
        return np.zeros((*array.shape[:2], *counts, *window), array.dtype)
    spans = [(k - 1) * d + 1 for k, d in zip(window, dilation, strict=True)]
    view = sliding_window_view(array, spans, axis=tuple(range(2, array.ndim)))
    starts = [slice(0, c * s, s) for c, s in zip(counts, strides, strict=True)]
    taps = [slice(None, None, d) for d in dilation]
    return view[(slice(None), slice(None), *starts, *taps)]


def output_count(
    size: int,
    window: int,
    stride: int,
    dilation: int,
    pad_before: int,
    pad_after: int,
    ceil_mode: bool = False,
) -> int:
    """``window_count`` for a concrete size, so that kernels and inference agree."""
    count = window_count(IntImm(size), window, stride, dilation, pad_before, pad_after, ceil_mode)
    assert isinstance(count, IntImm)
    return count.value


# --- convolutions ---------------------------------------------------------------------

_POSITIONS = "pqr"
_TAPS = "xyz"


def _direct(x: np.ndarray, w: np.ndarray, settings: ConvolutionSettings) -> np.ndarray:
    """Convolution of canonical ``NC...`` data with an ``OI...`` weight."""
    (n, c, *sizes), (o, i, *kernel) = x.shape, w.shape
    groups = settings.groups
    if c != i * groups or o % groups:
        raise ValueError(
            f"the data has {c} channels and the weight {o} output and {i} input channels, "
            f"which do not fit {groups} groups"
        )
    counts = [
        output_count(size, window, *axis)
        for size, window, axis in zip(sizes, kernel, settings.axes(), strict=True)
    ]
    padded = pad_spatial(x, settings.pad_before, settings.pad_after)
    view = windows(padded, kernel, settings.strides, settings.dilation, counts)
    view = view.reshape(n, groups, c // groups, *view.shape[2:])
    w = w.reshape(groups, o // groups, i, *kernel)
    positions, taps = _POSITIONS[: len(kernel)], _TAPS[: len(kernel)]
    out = np.einsum(f"ngc{positions}{taps},goc{taps}->ngo{positions}", view, w, optimize=True)
    return out.reshape(n, o, *counts)


def _transposed(x: np.ndarray, w: np.ndarray, settings: ConvolutionSettings) -> np.ndarray:
    """Transposed convolution of canonical ``NC...`` data with an ``IO...`` weight:
    each input element scatters its product with the kernel into the output."""
    (n, c, *sizes), (i, o, *kernel) = x.shape, w.shape
    groups = settings.groups
    if c != i or i % groups:
        raise ValueError(
            f"the data has {c} channels and the weight {i} input channels, "
            f"which do not fit {groups} groups"
        )
    x = x.reshape(n, groups, c // groups, *sizes)
    w = w.reshape(groups, i // groups, o, *kernel)
    strides, dilation = settings.strides, settings.dilation
    full = [
        (s - 1) * st + (k - 1) * d + 1
        for s, k, st, d in zip(sizes, kernel, strides, dilation, strict=True)
    ]
    out = np.zeros((n, groups, o, *full), np.result_type(x, w))
    for tap in np.ndindex(*kernel):
        target = tuple(
            slice(t * d, t * d + (s - 1) * st + 1, st)
            for t, d, s, st in zip(tap, dilation, sizes, strides, strict=True)
        )
        out[(slice(None),) * 3 + target] += np.einsum("ngc...,gco->ngo...", x, w[(..., *tap)])
    out = out.reshape(n, groups * o, *full)
    crop_before = [-b for b in settings.pad_before]
    extend_after = [e - a for e, a in zip(settings.output_padding, settings.pad_after, strict=True)]
    return pad_spatial(out, crop_before, extend_after)


@evaluates(*CONVOLUTIONS)
def _convolution(op: OperatorOp) -> Kernel:
    assert isinstance(op, ConvolutionOp)
    settings = op.settings()
    data_canonical, kernel_canonical = op.canonical_layouts()
    compute = _transposed if isinstance(op, TransposedConvolutionOp) else _direct
    dtype = result_dtype(op)
    form = result_form(op)

    def apply(data: np.ndarray, weight: np.ndarray) -> object:
        x = to_canonical(data, settings.data_layout, data_canonical)
        w = to_canonical(weight, settings.kernel_layout, kernel_canonical)
        if dtype is not None:
            x, w = x.astype(dtype, copy=False), w.astype(dtype, copy=False)
        out = compute(x, w, settings)
        return form(from_canonical(out, settings.out_layout, data_canonical))

    return apply
