"""MaxPool's Indices output: for each window, the flat position in the input
(``((n * C + c) * H + h) * W + w``, or with ``storage_order`` 1 the spatial axes
column-major) of its first largest element in row-major window order, as
ONNX's reference finds it. Each window tap is a strided slice of the input
padded with ``-inf``; the first tap inside the input holding the maximum wins."""

from __future__ import annotations

from itertools import product as taps_of

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, call
from ....dtype import DataType
from ..context import NodeContext
from .values import dimension_tensor, known_shape, numpy_dtype, positions, static_dim
from .windows import Window

INT32 = DataType("int", 32)


def max_pool_indices(ctx: NodeContext, x: SSAValue, pooled: SSAValue, slide: Window) -> SSAValue:
    dims = known_shape(ctx, x)
    rank, count = len(dims), len(slide.kernel)
    sizes = [static_dim(ctx, d, "the indices of the maxima") for d in dims[2:]]
    outputs = [
        static_dim(ctx, d, "the indices of the maxima") for d in known_shape(ctx, pooled)[2:]
    ]
    parts = zip(
        sizes, outputs, slide.kernel, slide.strides, slide.dilations, slide.pad_before, strict=True
    )
    after = [max(0, (o - 1) * s + (k - 1) * d + 1 - size - b) for size, o, k, s, d, b in parts]
    width = [0, 0, 0, 0]
    for before, extra in zip(slide.pad_before, after, strict=True):
        width += [before, extra]
    lowest = (
        float("-inf") if numpy_dtype(ctx, x).kind == "f" else int(np.iinfo(numpy_dtype(ctx, x)).min)
    )
    padded = ctx.emit("relax.nn.pad", x, pad_width=width, pad_value=lowest)
    starts = [
        call(
            "relax.subtract",
            call("relax.multiply", positions(o, rank, 2 + axis), np.array(s, np.int64)),
            np.array(b, np.int64),
        )
        for axis, (o, s, b) in enumerate(zip(outputs, slide.strides, slide.pad_before, strict=True))
    ]
    values, inside = [], []
    taps = list(taps_of(*(range(k) for k in slide.kernel)))
    for tap in taps:
        offsets = [i * d for i, d in zip(tap, slide.dilations, strict=True)]
        ends = [
            b + (o - 1) * s + 1 for b, o, s in zip(offsets, outputs, slide.strides, strict=True)
        ]
        axes = list(range(2, 2 + count))
        values.append(call("relax.strided_slice", padded, axes, offsets, ends, list(slide.strides)))
        valid: Call | None = None
        for axis, (start, offset) in enumerate(zip(starts, offsets, strict=True)):
            coordinate = call("relax.add", start, np.array(offset, np.int64))
            within = call(
                "relax.logical_and",
                call("relax.greater_equal", coordinate, np.array(0, np.int64)),
                call("relax.less", coordinate, np.array(sizes[axis], np.int64)),
            )
            valid = within if valid is None else call("relax.logical_and", valid, within)
        inside.append(valid)
    stacked = ctx.emit("relax.stack", values, axis=rank)
    largest = call("relax.max", stacked, axis=[rank], keepdims=True)
    hit = call(
        "relax.logical_and",
        call("relax.equal", stacked, largest),
        call("relax.stack", inside, axis=rank),
    )
    chosen = ctx.emit("relax.argmax", call("relax.astype", hit, dtype=INT32), axis=rank)
    column_major = bool(ctx.attr("storage_order", 0))
    order = range(count) if column_major else reversed(range(count))
    flat: Call | np.ndarray = np.array(0, np.int64)
    stride = 1
    for axis in order:
        offsets = np.array([tap[axis] * slide.dilations[axis] for tap in taps], np.int64)
        coordinate = call("relax.add", starts[axis], call("relax.take", offsets, chosen, axis=0))
        flat = call(
            "relax.add", flat, call("relax.multiply", coordinate, np.array(stride, np.int64))
        )
        stride *= sizes[axis]
    channels = call(
        "relax.add",
        call("relax.multiply", positions(dims[0], rank, 0), dimension_tensor(dims[1])),
        positions(dims[1], rank, 1),
    )
    return ctx.emit("relax.add", call("relax.multiply", channels, np.array(stride, np.int64)), flat)
