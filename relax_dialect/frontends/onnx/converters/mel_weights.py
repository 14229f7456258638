"""MelWeightMatrix: the triangular filters mapping the bins of a one-sided
spectrum onto bins of the mel scale, a constant computed at import time (its
shape depends on the input values, which must be known) as ONNX's reference
computes it."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ..context import NodeContext
from .registry import converter
from .values import constant_input, onnx_data_type


def _scalar(ctx: NodeContext, index: int, what: str) -> np.ndarray:
    value = constant_input(ctx, index, what)
    if value.size != 1:
        ctx.error(f"{what} must have one element, got {value.size}")
    return value.reshape(())


def mel_filters(
    bins: int, dft_length: int, sample_rate: np.ndarray, lowest: np.ndarray, highest: np.ndarray
) -> np.ndarray:
    """``[dft_length // 2 + 1, bins]``: each mel bin's triangle over the spectrum's
    bins, its corners ``bins + 2`` points evenly spaced in mels."""
    low_mel, high_mel = (2595 * np.log1p(f / 700) / np.log(10) for f in (lowest, highest))
    points = np.arange(bins + 2) * ((high_mel - low_mel) / (bins + 2)) + low_mel
    hertz = 700 * np.expm1(points / 2595 * np.log(10))
    corners = (((dft_length + 1) * hertz) // sample_rate).astype(int)
    filters = np.zeros((dft_length // 2 + 1, bins))
    triples = zip(corners, corners[1:], corners[2:], strict=False)
    for i, (left, center, right) in enumerate(triples):
        if center == left:
            filters[center, i] = 1
        else:
            filters[left : center + 1, i] = (np.arange(left, center + 1) - left) / (center - left)
        if right > center:
            filters[center:right, i] = (right - np.arange(center, right)) / (right - center)
    return filters


@converter("MelWeightMatrix", since=17)
def mel_weight_matrix(ctx: NodeContext) -> SSAValue:
    bins = int(_scalar(ctx, 0, "num_mel_bins"))
    dft_length = int(_scalar(ctx, 1, "dft_length"))
    rate, low, high = (
        _scalar(ctx, i, what)
        for i, what in ((2, "sample_rate"), (3, "lower_edge_hertz"), (4, "upper_edge_hertz"))
    )
    filters = mel_filters(bins, dft_length, rate, low, high)
    dtype = onnx_data_type(ctx, ctx.attr("output_datatype", 1))
    return ctx.const(filters.astype(dtype.to_numpy()))
