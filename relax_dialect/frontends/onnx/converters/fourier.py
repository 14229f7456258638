"""DFT as matrix products: the signal's real and imaginary parts (the last
axis, of length 1 or 2) times the cosines and sines of the transform along
``axis``, computed at import time for the signal's length (which must be
known) and ``dft_length`` (truncating or zero-padding the signal). Forward,
one-sided forward, inverse, and one-sided inverse (a real signal from the
first half of the spectrum)."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, call
from ..context import NodeContext
from .registry import converter
from .values import constant_int, known_shape, normalized_axis, numpy_dtype, static_dim


def _along(x: SSAValue | Call, axis: int, rank: int, matrix: np.ndarray) -> Call:
    """``x`` (of ``rank`` axes) multiplied along ``axis`` by ``matrix`` ``[in, out]``."""
    order = [a for a in range(rank) if a != axis] + [axis]
    back = [order.index(a) for a in range(rank)]
    moved = call("relax.permute_dims", x, axes=order)
    return call("relax.permute_dims", call("relax.matmul", moved, matrix), axes=back)


def _dft(ctx: NodeContext, axis: int) -> SSAValue:
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    rank = len(dims) - 1  # without the last axis (real, imaginary)
    axis = normalized_axis(ctx, axis, len(dims))
    if axis == rank:
        ctx.error("the axis cannot be the last one (real and imaginary parts)")
    parts = static_dim(ctx, dims[-1], "the real and imaginary parts")
    if parts not in (1, 2):
        ctx.error(f"the last axis has {parts} elements, expected 1 or 2")
    size = static_dim(ctx, dims[axis], "the signal")
    inverse, onesided = bool(ctx.attr("inverse", 0)), bool(ctx.attr("onesided", 0))
    default = 2 * (size - 1) if inverse and onesided else size
    length = constant_int(ctx, 1, "dft_length") if ctx.has_input(1) else default
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
