"""Col2Im: the columns of sliding blocks (as im2col lays them out) summed back
into an image, by a ``relax.scatter_elements`` that adds each column entry at
its pixel of the padded image, the padding then cropped."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape, call
from ..context import NodeContext
from .registry import converter
from .values import constant_ints, known_shape, static_dim
from .windows import per_axis


def _block_pixels(
    padded: list[int], block: list[int], strides: list[int], dilations: list[int], ctx: NodeContext
) -> np.ndarray:
    """The flat index in the padded image of each (block entry, block position),
    both row-major: ``[prod(block), count of blocks]``."""
    counts = [
        (size - dilation * (k - 1) - 1) // stride + 1
        for size, k, stride, dilation in zip(padded, block, strides, dilations, strict=True)
    ]
    if min(counts) < 1:
        ctx.error(f"blocks of {block} do not fit in the padded image {padded}")
    entries = np.indices(block).reshape(len(block), -1, 1)
    starts = np.indices(counts).reshape(len(block), 1, -1)
    step, spread = np.array(strides), np.array(dilations)
    pixels = starts * step[:, None, None] + entries * spread[:, None, None]
    return np.ravel_multi_index(tuple(pixels), padded)


@converter("Col2Im", since=18)
def col2im(ctx: NodeContext) -> SSAValue:
    """``[N, C * prod(block_shape), L]`` columns into a ``[N, C, *image_shape]``
    image; each column entry lands where its block, moved by ``strides`` and
    spread by ``dilations`` over the image padded by ``pads``, puts it."""
    x = ctx.input(0)
    image = constant_ints(ctx, 1, "the image shape")
    block = constant_ints(ctx, 2, "the block shape")
    count = len(image)
    if len(block) != count:
        ctx.error(f"block_shape has {len(block)} entries for an image of {count} axes")
    strides = per_axis(ctx, "strides", count, 1)
    dilations = per_axis(ctx, "dilations", count, 1)
    pads = per_axis(ctx, "pads", 2 * count, 0)
    dims = known_shape(ctx, x)
    if len(dims) != 3:
        ctx.error(f"the input must be of rank 3 (batch, channels * block, blocks), not {len(dims)}")
    columns = static_dim(ctx, dims[1], "splitting the channels from the block")
    size = int(np.prod(block))
    if columns % size:
        ctx.error(f"{columns} columns do not split into blocks of {size}")
    channels = columns // size
    padded = [s + pads[axis] + pads[count + axis] for axis, s in enumerate(image)]
    pixels = _block_pixels(padded, block, strides, dilations, ctx)
    blocks = static_dim(ctx, dims[2], "placing the blocks")
    if pixels.shape[1] != blocks:
        ctx.error(f"{blocks} blocks given, {pixels.shape[1]} fit in the padded image {padded}")
    batch = dims[0]
    entries = (batch, channels, size * blocks)
    indices = call("relax.broadcast_to", pixels.reshape(1, 1, -1), Shape(entries))
    zeros = call(
        "relax.zeros",
        Shape((batch, channels, int(np.prod(padded)))),
        dtype=ctx.tensor_type(x).data_type,
    )
    values = call("relax.reshape", x, Shape(entries))
    summed = call("relax.scatter_elements", zeros, indices, values, axis=2, reduction="add")
    spatial = call("relax.reshape", summed, Shape((batch, channels, *padded)))
    axes = list(range(2, 2 + count))
    ends = [pads[axis] + s for axis, s in enumerate(image)]
    return ctx.emit("relax.strided_slice", spatial, axes, pads[:count], ends)
