"""Convolutions with constant filters and narrow output rows as implicit GEMM: the im2col
operand gathered from the images straight into the packed blocks the micro-kernel reads,
output channels in the vector lanes (the tiling schedule's kernels, `units`; `prepacked_weights`
takes the other convolutions after it).

Through im2col a convolution copies its windows into a ``C·KH·KW × OH·OW`` matrix, then packs
that matrix into blocks: two passes over a matrix ``KH·KW`` times the image. Here the product
is ``pixels × F``: the output pixels (of every image) are the rows, broadcast ``m`` at a time,
and the output channels the columns, ``n`` per vector panel of the filter packed at compile
time. The filter is reused by every block of pixels while its cache tile is in L2; with the
filter on the left instead (``F × pixels``, im2col's orientation) each of its values served
only the few pixels of a 7 × 7 image before leaving the cache (the 512-channel 3 × 3 layer:
5.0 ms against 8.3 as matrix products of the same sizes, in one process).

1. the padded images are copied channels last, one zero image after them (`_channels_last`):
   the last block of pixels, past the last image, reads zeros;
2. with the depth ordered by tap, then channel (``C`` a multiple of the block's depth ``k``,
   so that no block straddles two taps), block ``(b, tap, cb)`` of the packed operand is
   ``m`` pixels × ``k`` consecutive channels of one row of the copy: a ``linalg.generic``
   writing ``[blocks, KH, KW, C / k, m, k]`` (reshaped for free into the packed operand
   ``[blocks, KH·KW·C / k, m, k]``) whose body reads the copy (``tensor.extract``) at the row
   of its pixel and tap, the pixel's image, row and column divided out of its loop indices;
   the schedule vectorises each row of ``k`` channels into one contiguous load;
3. the filter, reordered to ``KH·KW·C × F``, is packed in NumPy (`prepacked_weights`);
4. the product (`prepacked_weights.packed_product`), ``N·OH·OW × F`` in ``m × n`` blocks, is
   read out of its blocks into ``N × F × OH × OW`` (no unpacked copy).

The tiling schedule (`tiling`, ``match_gathered``) vectorises the gather and tiles the product
as a pre-packed one; the copies are loops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, IndexOp, TransposeOp, YieldOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from .building import fill_op, generic_op, i64_array, pad_op
from .ops.common import PARALLEL, reassociation
from .prepacked_weights import (
    PANELS_FIRST_MAPS,
    Builder,
    constant_array,
    dense_constant,
    pack_array,
    packed_product,
    pair,
    panels_first,
    replace_op,
    zero_filled,
)
from .schedules.read_out import mark_read_out
from .tiling import RegisterTile

MOST_STRIDED_WIDTH = 14
"""The widest output rows of a strided convolution taken. Measured against im2col in one process
on AVX-512 (docs/benchmarks.md): ResNet-18's 3 × 3 / 2 layers with rows of 14 and 7 columns took
0.97–1.0× the time, the one with rows of 28 (narrower than AVX-512's 32-column block) 1.17×."""


def gather_convolutions(module: ModuleOp, tile: RegisterTile) -> None:
    """Rewrite (in place) the convolutions of ``module`` that `applies` takes as implicit
    GEMMs with blocks of ``tile``."""
    for op in [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]:
        if applies(op, tile):
            _as_implicit_gemm(op, tile)


def applies(op: Conv2DNchwFchwOp, tile: RegisterTile) -> bool:
    """A convolution with a constant filter of more than one tap, sizes static but the batch,
    input channels a multiple of ``tile.k``, a zero-filled result and output rows narrower
    than ``tile.n`` (wider ones the direct convolution computes when their strides are 1; the
    units flatten unit-stride rows first where `flat_rows` takes them).
    Measured against `prepacked_weights`' im2col in one process (`docs/benchmarks.md`): 3 × 3
    layers with 14 × 14 and 7 × 7 outputs take 0.65–0.99× the time, a 3 × 3 / 2 one with
    28 × 28 outputs 1.15–1.2×, and 1 × 1 ones, whose im2col is no larger than the image,
    0.9–2.8× (the channels-last copy)."""
    data, weight, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(out, TensorType)
    assert isinstance(weight, TensorType)
    if constant_array(op.inputs[1]) is None or not zero_filled(op.outputs[0]):
        return False
    if DYNAMIC_INDEX in (*data.get_shape()[1:], *out.get_shape()[1:]):
        return False
    taps = weight.get_shape()[2] * weight.get_shape()[3]
    width = out.get_shape()[3]
    if pair(op.strides) != (1, 1) and width > MOST_STRIDED_WIDTH:
        return False
    return taps > 1 and data.get_shape()[1] % tile.k == 0 and width < tile.n


def _as_implicit_gemm(op: Conv2DNchwFchwOp, tile: RegisterTile) -> None:
    """Replace ``op`` by its implicit GEMM with blocks of ``tile``."""
    data, weight, init = op.operands
    array = constant_array(weight)
    assert array is not None
    batch = data.type.get_shape()[0]  # pyright: ignore[reportAttributeAccessIssue]
    filters, _, kh, kw = array.shape
    _, _, oh, ow = init.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    build = Builder(op)
    images = [build.dim(data, 0)] if batch == DYNAMIC_INDEX else []
    pixels: int | SSAValue = batch * oh * ow
    if images:
        pixels = build.add(arith.MuliOp(images[0], build.index(oh * ow)))
    blocks = build.blocks(pixels, tile.m) if images else -(-pixels // tile.m)
    height, width = data.type.get_shape()[2:]  # pyright: ignore[reportAttributeAccessIssue]
    window = Window((kh, kw), pair(op.strides), pair(op.dilations), (oh, ow), (height, width))
    gathered = _gather(build, _channels_last(build, data, images), window, blocks, tile)
    reordered = array.transpose(2, 3, 1, 0).reshape(-1, filters)
    replace_by_pixel_product(op, build, gathered, reordered, pixels, images, tile)


def replace_by_pixel_product(
    op: Conv2DNchwFchwOp,
    build: Builder,
    blocks: SSAValue,
    matrix: np.ndarray,
    pixels: int | SSAValue,
    images: list[SSAValue],
    tile: RegisterTile,
) -> None:
    """Replace the convolution ``op`` by the product of its ``pixels`` packed in ``m × k``
    ``blocks`` of ``tile`` and its filter ``matrix`` (taps·channels × filters) packed at
    compile time, read out of the result's blocks (`_to_nchw`; ``images``: the dynamic batch)."""
    element = op.outputs[0].type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    packed_filter = panels_first(pack_array(matrix, (tile.k, tile.n)))
    filter_blocks = build.add(dense_constant(packed_filter, element))
    shape = [DYNAMIC_INDEX if images else pixels, matrix.shape[1]]
    empty = build.empty(shape, element, [pixels] if images else [])
    product_init = build.add(fill_op(build.zero(element), empty))
    body = op.body.detach_block(0)
    operands = [blocks, filter_blocks]
    product = packed_product(build, operands, product_init, body, tile, PANELS_FIRST_MAPS)
    read_out = _to_nchw(build, product, op.outputs[0], images, tile)
    replace_op(op, read_out)
    mark_read_out(read_out)


@dataclass(frozen=True)
class Window:
    """A convolution's window: its taps, strides and dilations (rows, columns), the output's
    rows and columns and the padded image's."""

    taps: tuple[int, int]
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    out: tuple[int, int]
    image: tuple[int, int]


def _channels_last(build: Builder, data: SSAValue, images: list[SSAValue]) -> SSAValue:
    """The padded images ``data`` (``N × C × H × W``) and one zero image after them, as a
    ``(N + 1)·H·W × C`` matrix: the last block of pixels, past the last image, reads zeros."""
    batch, channels, height, width = data.type.get_shape()  # pyright: ignore
    element = data.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    more = DYNAMIC_INDEX if images else batch + 1
    padded_type = TensorType(element, [more, channels, height, width])
    padded = build.add(pad_op(data, [0] * 4, [1, 0, 0, 0], build.zero(element), padded_type))
    sizes = [build.dim(padded, 0)] if images else []
    last_type = TensorType(element, [more, height, width, channels])
    dest = build.empty(last_type.get_shape(), element, sizes)
    last = build.add(TransposeOp(padded, dest, i64_array(0, 2, 3, 1), last_type))
    length = DYNAMIC_INDEX if images else more * height * width
    return build.add(
        tensor.CollapseShapeOp.create(
            operands=[last],
            result_types=[TensorType(element, [length, channels])],
            properties={"reassociation": reassociation([[0, 1, 2], [3]])},
        )
    )


def _gather(
    build: Builder, flat: SSAValue, window: Window, blocks: int | SSAValue, tile: RegisterTile
) -> SSAValue:
    """The packed im2col operand ``[blocks, KH·KW·C / k, m, k]`` of the images ``flat``
    (`_channels_last`): block ``(b, i, j, cb)`` holds pixels ``b·m ..`` (counted over the
    images' output pixels) at the tap ``(i, j)``, channels ``cb·k ..``."""
    channels = flat.type.get_shape()[1]  # pyright: ignore[reportAttributeAccessIssue]
    element = flat.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    depth_blocks = channels // tile.k
    dynamic = isinstance(blocks, SSAValue)
    (kh, kw), (sh, sw), (dh, dw) = window.taps, window.strides, window.dilations
    (oh, ow), (height, width) = window.out, window.image
    shape = [DYNAMIC_INDEX if dynamic else blocks, kh, kw, depth_blocks, tile.m, tile.k]
    dest = build.empty(shape, element, [blocks] if dynamic else [])
    body = _Body(Block(arg_types=[element]))
    b, i, j, cb, mm, kk = (body.add(IndexOp(d)) for d in range(6))
    pixel = body.sum(body.times(b, tile.m), mm)
    image, y, x = (
        body.over(pixel, oh * ow),
        body.over(body.modulo(pixel, oh * ow), ow),
        body.modulo(pixel, ow),
    )
    row = body.sum(
        body.times(image, height * width),
        body.times(body.sum(body.times(y, sh), body.times(i, dh)), width),
        body.times(x, sw),
        body.times(j, dw),
    )
    channel = body.sum(body.times(cb, tile.k), kk)
    body.block.add_op(YieldOp(body.add(tensor.ExtractOp(flat, [row, channel], element))))
    maps = ArrayAttr([AffineMapAttr(AffineMap.identity(6))])
    blocked = build.add(generic_op([], [dest], body.block, maps, ArrayAttr([PARALLEL] * 6)))
    packed_shape = [shape[0], kh * kw * depth_blocks, tile.m, tile.k]
    return build.add(
        tensor.CollapseShapeOp.create(
            operands=[blocked],
            result_types=[TensorType(element, packed_shape)],
            properties={"reassociation": reassociation([[0], [1, 2, 3], [4], [5]])},
        )
    )


class _Body:
    """Index arithmetic appended to a ``linalg.generic``'s body ``block``."""

    def __init__(self, block: Block):
        self.block = block

    def add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def times(self, value: SSAValue, factor: int) -> SSAValue:
        return self.add(arith.MuliOp(value, self.constant(factor)))

    def over(self, value: SSAValue, divisor: int) -> SSAValue:
        return self.add(arith.DivUIOp(value, self.constant(divisor)))

    def modulo(self, value: SSAValue, divisor: int) -> SSAValue:
        return self.add(arith.RemUIOp(value, self.constant(divisor)))

    def sum(self, *values: SSAValue) -> SSAValue:
        total = values[0]
        for value in values[1:]:
            total = self.add(arith.AddiOp(total, value))
        return total


def _to_nchw(
    build: Builder, product: SSAValue, init: SSAValue, images: list[SSAValue], tile: RegisterTile
) -> SSAValue:
    """The ``N·OH·OW × F`` product, in ``m × n`` blocks of ``tile``, as the ``N × F × OH × OW``
    result (read from the blocks: no unpacked copy)."""
    element = init.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    _, _, oh, ow = init.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    dest = build.empty(init.type.get_shape(), element, images)  # pyright: ignore
    n, f, y, x = (AffineExpr.dimension(d) for d in range(4))
    pixel = n * (oh * ow) + y * ow + x
    reads = AffineMap(4, 0, (pixel // tile.m, f // tile.n, pixel % tile.m, f % tile.n))
    body = Block(arg_types=[element, element])
    body.add_op(YieldOp(body.args[0]))
    maps = ArrayAttr([AffineMapAttr(reads), AffineMapAttr(AffineMap.identity(4))])
    return build.add(generic_op([product], [dest], body, maps, ArrayAttr([PARALLEL] * 4)))
