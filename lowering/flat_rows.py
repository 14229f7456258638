"""Convolutions with unit strides over their flattened rows: output rows whose last register
block would be split into narrower ones computed as one long row instead (the tiling schedule's
kernels, `units`; `schedules/direct_convolution.py` register-blocks them).

The direct convolution blocks each output row into ``n`` columns; the last block of a ragged
row is split into halves (``28 = 16 + 8 + 4``), which fill fewer accumulators: measured in one
process, a 3 × 3 convolution of 128 channels on 28 × 28 images took 1.3× the time of the same
one on 49 × 16 images (the same work in whole blocks). With unit strides, output pixel
``(y, x)`` reads the padded image (``H × W``, flattened) at ``y·W + x + i·W + j`` for tap
``(i, j)``: every output pixel is a position ``p = y·W + x`` of the flattened image, whose
windows are those of a 1-D convolution with offsets ``i·W + j``. Computed at every ``p`` of
``OH·W`` positions, in blocks of ``n`` (``[N, F, blocks, n]``), the convolution fills whole
blocks; the ``W − OW`` positions past each row's end (2 of 30 at 28 × 28 with a 3 × 3 window)
are computed and dropped: the result is read through reshapes and slices, no copy (an
epilogue written in place reads it and writes the first step afresh, `write_afresh`). The padded
image gets the zero rows the last block reads past its end (its pad grows by them, or a pad
is made). The epilogue is then not fused into the rows' tiles (fusion stops at the reshape):
it runs after the convolution, over the whole result.

Taken: 2-D convolutions (``NCHW``/``FCHW``) with unit strides and dilations, sizes static but
the batch and a zero-filled result (`applies`), and

* with more than one tap, rows whose ragged last block is wider than half a block and than the
  positions dropped at each row's end, or rows narrower than a block with few positions
  computed and dropped (`NARROW_KEPT`; the others take the implicit GEMM or im2col). Measured
  on ResNet-18 with constant weights in one process (docs/benchmarks.md): with AVX2's
  16-column blocks, taking its 28 × 28 layers (a ragged block of 12) took it from 75.5 to
  69.4 ms; taking its 56 × 56 layers too (a ragged block of 8, whose split is whole 8-column
  vectors) made it 74.0 ms. With AVX-512's 32-column blocks its 56 × 56 layers (a ragged
  block of 24) are taken, and so are its 28 × 28 and 14 × 14 ones, narrower than a block,
  which the implicit GEMM took before;
* with one tap (a 1 × 1 convolution: an unpadded image is one row of ``H·W`` positions, none
  dropped), rows narrower than ``n`` columns, which im2col took (those `pointwise_convolution`
  takes first keep its pixels × filters product). MobileNetV2's 1 × 1 layers on 28², 14² and
  7² images with their bias and clip took 0.59–0.83× the time of im2col on AVX-512 (one
  process, docs/benchmarks.md); on wider rows (56², 112²) over flattened rows took 1.09–1.56×
  the time of the direct schedule's rows, whose tiles the epilogue is fused into.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from .building import fill_op, marked_convolution, pad_op
from .in_place_epilogues import write_afresh
from .ops.common import reassociation
from .prepacked_weights import Builder, is_zero, pair, replace_op, zero_filled
from .schedules.direct_convolution import FLAT_ROWS
from .tiling import RegisterTile

NARROW_KEPT = 7 / 8
"""The least share of outputs among the positions computed over rows narrower than a block
(the rest are the positions dropped at each row's end and past the last row) for them to be
flattened. With AVX-512's 32-column blocks, flattening ResNet-18's 28 × 28 layers (784 outputs
of 864 positions) took the model 0.89–1.01× its time (six runs, median 0.95), its 14 × 14 ones
too (196 of 224) 0.94–0.99× that; its 7 × 7 ones too (49 of 64) 1.02–1.04× with 8-filter
blocks, 0.97× with 14, but a bound taking them takes AVX2's too, and with AVX2 code on the same
host a flattened 7 × 7 layer took 1.09× the implicit GEMM's time (a 14 × 14 one the same time)
(docs/benchmarks.md)."""


def flatten_rows(module: ModuleOp, tile: RegisterTile) -> None:
    """Rewrite (in place) the convolutions of ``module`` that `applies` takes over their
    flattened rows, in blocks of ``tile.n`` positions."""
    for op in [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]:
        if applies(op, tile):
            _over_flat_rows(op, tile.n)


def applies(op: Conv2DNchwFchwOp, tile: RegisterTile) -> bool:
    """Whether ``op`` is computed over its flattened rows: unit strides and dilations, static
    sizes but the batch, a zero-filled result, and either one tap and rows narrower than
    ``tile.n`` columns, or more than one tap and rows whose ragged last block is wider than half
    a block and than the positions dropped at each row's end, or rows narrower than a block
    whose outputs are at least `NARROW_KEPT` of the positions computed."""
    data, weight, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(weight, TensorType)
    assert isinstance(out, TensorType)
    if pair(op.strides) != (1, 1) or pair(op.dilations) != (1, 1):
        return False
    if not zero_filled(op.outputs[0]):
        return False
    if DYNAMIC_INDEX in (*data.get_shape()[1:], *out.get_shape()[1:]):
        return False
    _, _, kh, kw = weight.get_shape()
    width, (rows, columns) = data.get_shape()[3], out.get_shape()[2:]
    if kh * kw == 1:
        return columns < tile.n
    if columns < tile.n:
        computed = -(-rows * width // tile.n) * tile.n
        return rows * columns >= NARROW_KEPT * computed
    return columns % tile.n > max(tile.n // 2, width - columns)


def _over_flat_rows(op: Conv2DNchwFchwOp, columns: int) -> None:
    """Replace ``op`` by its convolution over flattened rows in blocks of ``columns``."""
    data, weight, init = op.operands
    batch, channels, height, width = data.type.get_shape()  # pyright: ignore
    filters, _, kh, kw = weight.type.get_shape()  # pyright: ignore
    oh = init.type.get_shape()[2]  # pyright: ignore
    element = init.type.get_element_type()  # pyright: ignore
    blocks = -(-oh * width // columns)
    past = blocks * columns + (kh - 1) * width + kw - 1 - height * width
    build = Builder(op)
    images = [build.dim(data, 0)] if batch == DYNAMIC_INDEX else []
    rows = height + max(0, -(-past // width))
    padded = _padded(build, data, rows)
    flat = build.add(
        tensor.CollapseShapeOp.create(
            operands=[padded],
            result_types=[TensorType(element, [batch, channels, rows * width])],
            properties={"reassociation": reassociation([[0], [1], [2, 3]])},
        )
    )
    shape = [batch, filters, blocks, columns]
    empty = build.empty(shape, element, images)
    result = build.add(fill_op(build.zero(element), empty))
    d = [AffineExpr.dimension(i) for i in range(7)]
    position = d[2] * columns + d[3] + d[5] * width + d[6]
    maps = [
        AffineMap(7, 0, (d[0], d[4], position)),
        AffineMap(7, 0, (d[1], d[4], d[5], d[6])),
        AffineMap(7, 0, (d[0], d[1], d[2], d[3])),
    ]
    convolved = build.add(marked_convolution(op, [flat, weight], result, maps, 4, FLAT_ROWS))
    rows = _rows(build, convolved, init.type, width, images)  # pyright: ignore
    replace_op(op, rows)
    write_afresh(rows)


def _padded(build: Builder, data: SSAValue, rows: int) -> SSAValue:
    """``data`` with zero rows below it up to ``rows``: its own pad grown when only this
    convolution reads it, else a pad of it."""
    shape = data.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    element = data.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    grown = TensorType(element, [shape[0], shape[1], rows, shape[3]])
    more = rows - shape[2]
    pad = data.owner
    if (
        isinstance(pad, tensor.PadOp)
        and data.has_one_use()
        and not pad.low
        and not pad.high
        and _yields_zero(pad)
    ):
        low = list(pad.static_low.get_values())
        high = list(pad.static_high.get_values())
        high[2] += more
        return build.add(pad_op(pad.source, low, high, build.zero(element), grown))
    return build.add(pad_op(data, [0] * 4, [0, 0, more, 0], build.zero(element), grown))


def _yields_zero(pad: tensor.PadOp) -> bool:
    """Whether ``pad`` pads with the constant zero."""
    yielded = pad.region.block.last_op
    return yielded is not None and is_zero(yielded.operands[0])


def _rows(
    build: Builder, convolved: SSAValue, result: TensorType, width: int, images: list[SSAValue]
) -> SSAValue:
    """The ``[N, F, blocks, n]`` convolution over flattened rows of ``width`` positions read
    as the ``N × F × OH × OW`` ``result`` (reshapes and slices)."""
    batch, filters, oh, ow = result.get_shape()
    element = result.get_element_type()
    blocks, columns = convolved.type.get_shape()[2:]  # pyright: ignore
    sizes: list[int | SSAValue] = [*(images or [batch]), filters]
    flat = build.add(
        tensor.CollapseShapeOp.create(
            operands=[convolved],
            result_types=[TensorType(element, [batch, filters, blocks * columns])],
            properties={"reassociation": reassociation([[0], [1], [2, 3]])},
        )
    )
    kept_type = TensorType(element, [batch, filters, oh * width])
    kept = build.add(tensor.ExtractSliceOp(flat, [0] * 3, [*sizes, oh * width], [1] * 3, kept_type))
    rows_shape = [batch, filters, oh, width]
    rows = build.add(
        tensor.ExpandShapeOp(
            kept,
            list(images),
            reassociation([[0], [1], [2, 3]]),
            rows_shape,
            TensorType(element, rows_shape),
        )
    )
    return build.add(tensor.ExtractSliceOp(rows, [0] * 4, [*sizes, oh, ow], [1] * 4, result))
