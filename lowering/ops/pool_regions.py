"""A pooling's output split into the interior, whose windows lie wholly inside the data, and
the borders, whose windows reach into the padding.

The interior's windows read the data in place; only the borders' windows read a padded copy,
of the few rows or columns they need. Along each spatial axis in turn, the outputs before and
after the interior are a border region (over the whole extent of the later axes); the
interior's outputs go on to the next axis; what remains after the last axis is the interior.
"""

from __future__ import annotations

from collections.abc import Sequence

Axis = tuple[int, int, int, int, int]
"""A spatial axis of a pooling: window size, stride, dilation, padding before and after."""
Span = tuple[int, int]
"""Output positions ``[first, last)`` along an axis."""


def pool_regions(
    axes: Sequence[Axis], sizes: Sequence[int], counts: Sequence[int]
) -> list[list[Span]]:
    """The non-empty regions of the output (``counts`` windows along axes of data ``sizes``),
    the interior first."""
    borders: list[list[Span]] = []
    middle: list[Span] = []
    for axis, ((window, stride, dilation, before, _), size, count) in enumerate(
        zip(axes, sizes, counts, strict=True)
    ):
        first = max(0, min(count, -(-before // stride)))
        inside = (size - 1 + before - (window - 1) * dilation) // stride + 1
        last = max(first, min(count, inside))
        rest = [(0, c) for c in counts[axis + 1 :]]
        borders += [
            [*middle, span, *rest] for span in ((0, first), (last, count)) if span[0] < span[1]
        ]
        middle.append((first, last))
        if first == last:
            return borders
    return [middle, *borders]


def window_reads(span: Span, axis: Axis, size: int) -> tuple[int, int, int, int]:
    """What the windows of outputs ``span`` read along ``axis`` of ``size`` data: the data
    ``[start, end)`` and the padding before and after it."""
    window, stride, dilation, before, _ = axis
    low = span[0] * stride - before
    high = (span[1] - 1) * stride + (window - 1) * dilation - before + 1
    start, end = max(low, 0), min(high, size)
    if start >= end:  # the windows read only padding
        return 0, 0, 0, high - low
    return start, end, start - low, high - end
