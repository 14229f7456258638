"""Kernels of the pooling operators (TVM's ``topi.nn.pool*`` and
``adaptive_pool`` numerics: sums in the data type, integer averages rounded
toward zero, the divisor counting padding or not as TVM does)."""

from __future__ import annotations

from functools import reduce

import numpy as np

from ..ops.pooling import OPERATIONS as POOLS
from ..ops.pooling import AdaptiveAvgPoolOp, AvgPoolOp, PoolOp, PoolSettings
from . import evaluates
from .arithmetic import lowest, truncating_divide
from .common import Kernel, result_form
from .convolution import from_canonical, output_count, pad_spatial, to_canonical, windows


def _outer_product(factors: list[np.ndarray]) -> np.ndarray:
    """The product of one 1-D array per spatial axis, broadcast over those axes."""
    rank = len(factors)
    return reduce(
        np.multiply,
        [
            f.reshape([-1 if a == axis else 1 for a in range(rank)])
            for axis, f in enumerate(factors)
        ],
    )


def _divisors(sizes: tuple[int, ...], counts: list[int], settings: PoolSettings) -> np.ndarray:
    """How many elements each window averages (topi's rule, with its integer
    divisions): its taps in the data, or in the data and its padding."""
    factors = []
    for size, count, (window, stride, dilation, before, after) in zip(
        sizes, counts, settings.axes(), strict=True
    ):
        start = np.arange(count) * stride - before
        last = start + (window - 1) * dilation
        if settings.count_include_pad:
            end = np.minimum(last, size + after - 1)
            factors.append(truncating_divide(end - start, dilation) + 1)
        else:
            end = np.minimum(last, size - 1)
            first = start + dilation * np.maximum(
                truncating_divide(dilation - 1 - start, dilation), 0
            )
            factors.append(truncating_divide(end - first, dilation) + 1)
    return np.maximum(_outer_product(factors), 1)


@evaluates(*(op for op in POOLS if issubclass(op, PoolOp)))
def _pool(op: PoolOp) -> Kernel:
    settings = op.settings()
    layout, out_layout = op.layouts()
    canonical = op.canonical_layout()
    average = isinstance(op, AvgPoolOp)
    # in ceil mode, a last partial window reads up to stride - 1 more padding
    extra = [stride - 1 if settings.ceil_mode else 0 for stride in settings.strides]
    after = [a + e for a, e in zip(settings.pad_after, extra, strict=True)]
    form = result_form(op)

    def apply(data: np.ndarray) -> object:
        x = to_canonical(data, layout, canonical)
        sizes = x.shape[2:]
        counts = [
            output_count(size, *axis, settings.ceil_mode)
            for size, axis in zip(sizes, settings.axes(), strict=True)
        ]
        padded = pad_spatial(x, settings.pad_before, after, 0 if average else lowest(x.dtype))
        view = windows(padded, settings.pool_size, settings.strides, settings.dilation, counts)
        taps = tuple(range(-len(counts), 0))
        if average:
            total = view.sum(axis=taps, dtype=x.dtype)
            out = truncating_divide(total, _divisors(sizes, counts, settings))
        else:
            out = view.max(axis=taps)
        return form(from_canonical(out, out_layout, canonical))

    return apply


def _window_sums(x: np.ndarray, axis: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Sums of the adaptive windows along ``axis`` and their sizes."""
    size = x.shape[axis]
    index = np.arange(count)
    starts = index * size // count
    sizes = -(-(index + 1) * size // count) - starts
    total = np.zeros((*x.shape[:axis], count, *x.shape[axis + 1 :]), x.dtype)
    shape = [-1 if a == axis else 1 for a in range(x.ndim)]
    for offset in range(int(sizes.max(initial=0))):
        taken = np.take(x, np.minimum(starts + offset, size - 1), axis=axis)
        total += np.where((offset < sizes).reshape(shape), taken, 0)
    return total, sizes


@evaluates(*(op for op in POOLS if issubclass(op, AdaptiveAvgPoolOp)))
def _adaptive_pool(op: AdaptiveAvgPoolOp) -> Kernel:
    given = op.output_size_values()
    layout, out_layout = op.layouts()
    canonical = op.canonical_layout()
    form = result_form(op)

    def apply(data: np.ndarray) -> object:
        x = to_canonical(data, layout, canonical)
        sizes = []
        for axis, count in enumerate(given or x.shape[2:]):
            x, window_sizes = _window_sums(x, axis + 2, count)
            sizes.append(window_sizes)
        out = truncating_divide(x, _outer_product(sizes))
        return form(from_canonical(out, out_layout, canonical))

    return apply
