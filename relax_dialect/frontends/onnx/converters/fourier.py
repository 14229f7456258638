"""DFT as matrix products: the signal's real and imaginary parts (the last
axis, of length 1 or 2) times the cosines and sines of the transform along
``axis``, computed at import time for the signal's length (which must be
known) and ``dft_length`` (truncating or zero-padding the signal). Forward,
one-sided forward, inverse, and one-sided inverse (a real signal from the
first half of the spectrum). STFT: the DFT of the signal's windowed frames."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ..context import NodeContext
from .registry import converter
from .values import constant_int, emit, known_shape, normalized_axis, numpy_dtype, static_dim


def _along(x: SSAValue | Call, axis: int, rank: int, matrix: np.ndarray) -> Call:
    """``x`` (of ``rank`` axes) multiplied along ``axis`` by ``matrix`` ``[in, out]``."""
    order = [a for a in range(rank) if a != axis] + [axis]
    back = [order.index(a) for a in range(rank)]
    moved = call("relax.permute_dims", x, axes=order)
    return call("relax.permute_dims", call("relax.matmul", moved, matrix), axes=back)


def _dft(ctx: NodeContext, axis: int) -> SSAValue:
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    axis = normalized_axis(ctx, axis, len(dims))
    size = static_dim(ctx, dims[axis], "the signal")
    inverse, onesided = bool(ctx.attr("inverse", 0)), bool(ctx.attr("onesided", 0))
    default = 2 * (size - 1) if inverse and onesided else size
    length = constant_int(ctx, 1, "dft_length") if ctx.has_input(1) else default
    return spectrum(ctx, x, axis, length, inverse, onesided)


def spectrum(
    ctx: NodeContext, x: SSAValue, axis: int, length: int, inverse: bool, onesided: bool
) -> SSAValue:
    """The DFT of length ``length`` of ``x`` (its last axis the real and imaginary
    parts) along ``axis`` (not the last)."""
    dims = known_shape(ctx, x)
    rank = len(dims) - 1  # without the last axis (real, imaginary)
    if axis == rank:
        ctx.error("the axis cannot be the last one (real and imaginary parts)")
    parts = static_dim(ctx, dims[-1], "the real and imaginary parts")
    if parts not in (1, 2):
        ctx.error(f"the last axis has {parts} elements, expected 1 or 2")
    size = static_dim(ctx, dims[axis], "the signal")
    frequencies = length // 2 + 1 if onesided and not inverse else length
    used = min(size, length // 2 + 1 if inverse and onesided else length)
    signal = [call("relax.take", x, np.array(p, np.int64), axis=rank) for p in range(parts)]
    if used < size:
        signal = [call("relax.strided_slice", s, [axis], [0], [used]) for s in signal]
    angles = 2 * np.pi * np.outer(np.arange(used), np.arange(frequencies)) / length
    dtype = numpy_dtype(ctx, x)
    cos, sin = np.cos(angles), np.sin(angles)
    if inverse and onesided:  # the other half of the spectrum mirrors this one
        weights = np.full(used, 2.0)
        weights[0] = 1.0
        if length % 2 == 0 and used > length // 2:
            weights[length // 2] = 1.0
        cos, sin = cos * weights[:, None], sin * weights[:, None]
    if inverse:
        cos, sin, sin_sign = cos / length, sin / length, 1.0
    else:
        sin_sign = -1.0
    real: Call = _along(signal[0], axis, rank, cos.astype(dtype))
    imaginary: Call = _along(signal[0], axis, rank, (sin_sign * sin).astype(dtype))
    if parts == 2:
        real = call(
            "relax.subtract", real, _along(signal[1], axis, rank, (sin_sign * sin).astype(dtype))
        )
        imaginary = call("relax.add", imaginary, _along(signal[1], axis, rank, cos.astype(dtype)))
    if inverse and onesided:
        return ctx.emit("relax.expand_dims", real, axis=[rank])
    return ctx.emit("relax.stack", [real, imaginary], axis=rank)


@converter("DFT", since=17)
def dft_axis_attribute(ctx: NodeContext) -> SSAValue:
    return _dft(ctx, ctx.attr("axis", 1))


@converter("DFT", since=20)
def dft_axis_input(ctx: NodeContext) -> SSAValue:
    return _dft(ctx, constant_int(ctx, 2, "the axis") if ctx.has_input(2) else -2)


@converter("STFT", since=17)
def stft(ctx: NodeContext) -> SSAValue:
    """``[batch, frames, bins, 2]``: the DFT of each frame of ``frame_length``
    samples, ``frame_step`` apart, times the window (ones without one); one-sided
    (``bins = frame_length // 2 + 1``) unless ``onesided`` is 0."""
    signal = ctx.input(0)
    dims = known_shape(ctx, signal)
    if len(dims) != 3:
        ctx.error(f"the signal must be of rank 3 (batch, length, 1 or 2), not {len(dims)}")
    samples = static_dim(ctx, dims[1], "cutting the frames")
    step = constant_int(ctx, 1, "the frame step")
    window = ctx.optional_input(2)
    if ctx.has_input(3):
        length = constant_int(ctx, 3, "the frame length")
    elif window is not None:
        length = static_dim(ctx, known_shape(ctx, window, "the window")[0], "the frame length")
    else:
        length = samples
    if step < 1 or not 1 <= length <= samples:
        ctx.error(f"frames of {length} samples {step} apart do not fit {samples} samples")
    frames = [
        call("relax.strided_slice", signal, [1], [start], [start + length])
        for start in range(0, samples - length + 1, step)
    ]
    cut: Call = call("relax.stack", frames, axis=1)
    if window is not None:
        cut = call("relax.multiply", cut, call("relax.reshape", window, Shape((1, 1, length, 1))))
    return spectrum(ctx, emit(ctx, cut), 2, length, False, bool(ctx.attr("onesided", 1)))
