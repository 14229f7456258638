"""Strided windows split into phases, so that every window reads its input with unit stride
(native code: the tiling schedule's kernels, `units`).

A window of stride ``s`` and dilation ``d`` reads, for output ``o`` and tap ``k``, the input
at ``o·s + k·d = (o + ⌊k·d / s⌋)·s + (k·d mod s)``: element ``o + ⌊k·d / s⌋`` of *phase*
``k·d mod s``, the input's elements ``r, r + s, r + 2s, ...`` for ``r = k·d mod s``. With the
input copied once into its phases, each tap reads consecutive elements of one phase where it
read every ``s``-th element of the input: MLIR's vectoriser refuses those strided reads
("Attempted to vectorize, but failed", after which mlir-opt-22 crashed), the unit-stride
ones it vectorises. The phases ``P[..., ph, pw, y, x] = x[..., y·sh + ph, x·sw + pw]`` of the
padded input are one copy per phase of the input elements each holds, from the input before
its padding (the kernel holds the ``tensor.pad``, `kernels`), into a tensor filled with zeros
where a phase holds padding: one pass where padding then splitting took two. Rewritten so:

* a depthwise convolution (``linalg.conv_2d_ngchw_gfchw``, one input and one output channel
  per group): the convolution reading ``P[n, g, c, kh·dh mod sh, kw·dw mod sw,
  oh + ⌊kh·dh / sh⌋, ow + ⌊kw·dw / sw⌋]``, a ``linalg.generic`` marked `PHASED` that the
  depthwise schedule (`schedules/depthwise.py`) tiles as the unit-stride ones: strips of output
  rows in vector registers, one tap at a time, each tap a unit-stride strip of one phase. Each
  image and channel is a point of an ``scf.forall`` (shared among the threads) that splits the
  channel, fills its result with zeros, convolves it and computes its epilogue (the
  element-wise steps written into the result, `in_place_epilogues`) while they are in the cache
  (MobileNetV2's 96 × 112² / 2 layer took 0.62–0.67 of the time of phases split for the whole
  tensor, written to memory and read back: docs/benchmarks.md); a
  padded one with unit strides too, as one phase: its padding is then written as the zeros
  around a copy of the input, where the schedule's padding filled the whole padded tensor
  and then copied the input into it;
* a convolution with one group (``linalg.conv_2d_nchw_fchw``) without dilation whose output
  rows are wide enough for the direct schedule (`schedules/direct_convolution.py`) and whose
  window gains few products of zero taps when split (`MOST_ZERO_PRODUCTS`): a
  convolution with unit column strides over the columns' phases as channels (``C·sw`` of
  them) with the weights split into the same phases (``W'[f, c, pw, i, j] = W[f, c, i,
  j·sw + pw]``, zeros past the window), its rows read with their stride (the direct schedule
  reads one input row per register block, whatever the stride), which the direct schedule
  computes in place where the strided one went through a strided im2col copy: ResNet's
  7 × 7 / 2 stem becomes a 7 × 4 window over 6 channels (56 taps of 49 multiply zeros). Split
  along the rows too, it was a 4 × 4 window over 12 channels (64 taps): 1.12× the time on
  AVX-512, MobileNetV2's 3 × 3 / 2 stem 1.13× (docs/benchmarks.md).

Their sizes must be static but the batch, their elements f32. IREE's input (`iree_input`)
never sees them: this runs on the native backend's kernel units.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import (
    Conv2DNchwFchwOp,
    Conv2DNgchwGfchwOp,
    ConvOperation,
    FillOp,
    GenericOp,
    YieldOp,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from .building import contraction_op, fill_op, generic_op, insert_slice_op, marked_convolution
from .forall_ops import ForallOp, InParallelOp, ParallelInsertSliceOp
from .ops.common import PARALLEL, collapse_op, reassociation
from .prepacked_weights import zero_filled
from .schedules import direct_convolution
from .schedules.depthwise import PHASED
from .schedules.outer_threads import PARTS_PER_THREAD, mark_loop
from .threads import machine_cores
from .tiling import RegisterTile

MOST_ZERO_PRODUCTS = 32
"""The most products of zero taps a window with one group may gain once split along its
columns, per output element of each filter, over its taps (``(split taps - taps) · filters /
taps``): what each element an im2col copy and its packing move (``taps`` per output element)
costs in products, about. Measured against im2col in one process (docs/benchmarks.md), split
along both axes: ResNet-18's 7 × 7 / 2 stem (then 20) took 0.43–0.59 of the time,
MobileNetV2's 3 × 3 / 2 stem (25) 0.37–0.61, a 3 × 3 / 2 of 16 → 32 channels (25) 0.64–0.79, a
1 × 1 / 2 (0) the same, ResNet-18's 3 × 3 / 2 64 → 128 (100) 1.7–1.9 times; along the columns
alone on AVX-512 a 3 × 3 / 2 64 → 128 with 56-column rows (43) 0.98 (so not taken: ResNet-18's
such layers keep im2col on every host)."""


def split_phases(module: ModuleOp, tile: RegisterTile) -> None:
    """Rewrite (in place) the strided or padded depthwise convolutions of ``module``, and the
    strided ones with one group that would be direct ones with unit strides (register blocks of
    ``tile``), to read their input split into phases."""
    for op in [op for op in module.walk() if isinstance(op, ConvOperation)]:
        if not _static(op):
            continue
        if isinstance(op, Conv2DNgchwGfchwOp) and _depthwise(op) and _strided_or_padded(op):
            _split_depthwise(op)
        elif isinstance(op, Conv2DNchwFchwOp) and _strided(op) and _direct_once_split(op, tile):
            _split_channels(op)


def _pair(attr: DenseIntOrFPElementsAttr) -> tuple[int, int]:
    first, second = (int(v) for v in attr.get_values())
    return first, second


def _static(op: ConvOperation) -> bool:
    """An f32 convolution whose sizes are static but the batch."""
    data, weight, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(weight, TensorType)
    assert isinstance(out, TensorType)
    sizes = (*data.get_shape()[1:], *weight.get_shape(), *out.get_shape()[1:])
    return isinstance(out.get_element_type(), Float32Type) and DYNAMIC_INDEX not in sizes


def _strided(op: ConvOperation) -> bool:
    return _pair(op.strides) != (1, 1)  # pyright: ignore[reportAttributeAccessIssue]


def _strided_or_padded(op: Conv2DNgchwGfchwOp) -> bool:
    """Strided, or its input padded with zeros in the kernel: then split into one phase, the
    padding is written as the zeros around a copy of the input (a fill of the whole padded
    tensor then the copy were two passes over it)."""
    _, before, after = _unpadded(op.inputs[0])
    return _strided(op) or any(before + after)


def _depthwise(op: Conv2DNgchwGfchwOp) -> bool:
    """One input and one output channel per group."""
    return op.inputs[1].type.get_shape()[1:3] == (1, 1)  # pyright: ignore


def _direct_once_split(op: Conv2DNchwFchwOp, tile: RegisterTile) -> bool:
    """Without dilation, with output rows the direct schedule takes with unit column strides,
    and few zero taps once split along the columns (`MOST_ZERO_PRODUCTS`)."""
    width = op.outputs[0].type.get_shape()[3]  # pyright: ignore[reportAttributeAccessIssue]
    _, (vertical, horizontal) = _axes(op)
    strides = (vertical.stride, 1)
    if not direct_convolution.computes(strides, _pair(op.dilations), width, tile.n):
        return False
    split = vertical.taps * horizontal.phases * horizontal.reach
    taps = vertical.taps * horizontal.taps
    filters = op.outputs[0].type.get_shape()[1]  # pyright: ignore[reportAttributeAccessIssue]
    return (split - taps) * filters <= MOST_ZERO_PRODUCTS * taps


@dataclass(frozen=True)
class _Phasing:
    """An axis of ``size`` elements after ``before`` zeros split by ``stride`` into
    ``phases`` phases of ``extent`` elements (zeros past the end)."""

    size: int
    before: int
    stride: int
    phases: int
    extent: int

    def copied(self, phase: int) -> tuple[int, int, int]:
        """The first element of ``phase`` that is an input element (not a zero), how many
        are, and where the first is in the input."""
        first = max(0, -((phase - self.before) // self.stride))
        last = min(self.extent - 1, (self.size - 1 + self.before - phase) // self.stride)
        return first, last - first + 1, first * self.stride + phase - self.before


@dataclass(frozen=True)
class _Axis:
    """One spatial axis of a window: ``o·stride + k·dilation`` for ``outputs`` values of ``o``
    and ``taps`` values of ``k``, over an input of ``size`` elements after ``before`` zeros
    (its padding)."""

    outputs: int
    taps: int
    stride: int
    dilation: int
    size: int
    before: int

    @property
    def phases(self) -> int:
        """The phases the taps read: ``0`` to the largest ``k·d mod s``."""
        return max(k * self.dilation % self.stride for k in range(self.taps)) + 1

    @property
    def reach(self) -> int:
        """The elements of a phase between a window's first and last tap, plus one."""
        return (self.taps - 1) * self.dilation // self.stride + 1

    @property
    def data(self) -> _Phasing:
        """The input's phases: the elements each window's taps read."""
        extent = self.outputs + self.reach - 1
        return _Phasing(self.size, self.before, self.stride, self.phases, extent)

    @property
    def whole(self) -> tuple[_Phasing, _Phasing]:
        """The input's elements the windows read and the window, each one phase: the axis
        not split, read with its stride."""
        extent = (self.outputs - 1) * self.stride + (self.taps - 1) * self.dilation + 1
        window = _Phasing(self.taps, 0, 1, 1, self.taps)
        return _Phasing(self.size, self.before, 1, 1, extent), window

    @property
    def weights(self) -> _Phasing:
        """The window's phases (without dilation): its taps in each phase."""
        return _Phasing(self.taps, 0, self.stride, self.phases, self.reach)

    def read(self, position: AffineExpr, tap: AffineExpr) -> tuple[AffineExpr, AffineExpr]:
        """The phase and the element within it of ``position · stride + tap · dilation``."""
        offset = tap * self.dilation
        if self.phases == 1:
            return AffineExpr.constant(0), position + offset // self.stride
        return offset % self.stride, position + offset // self.stride


def _insert(op: Operation, before: Operation) -> SSAValue:
    """Insert ``op`` before ``before``; its result."""
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.results[0]


def _unpadded(data: SSAValue) -> tuple[SSAValue, tuple[int, int], tuple[int, int]]:
    """The input the convolution's ``data`` pads with zeros (through a grouped convolution's
    reshape), and the zeros before and after its rows and columns; ``data`` itself and no
    zeros if it is not such a padding."""
    pad = data.owner
    if isinstance(pad, tensor.ExpandShapeOp):
        pad = pad.operands[0].owner
    if not isinstance(pad, tensor.PadOp) or pad.low or pad.high:
        return data, (0, 0), (0, 0)
    low, high = pad.static_low.get_values(), pad.static_high.get_values()
    [yielded] = pad.region.block.last_op.operands  # pyright: ignore[reportOptionalMemberAccess]
    value = yielded.owner
    zero = isinstance(value, arith.ConstantOp) and value.value == FloatAttr(0.0, yielded.type)
    if not zero or any(low[:-2]) or any(high[:-2]) or min(low + high) < 0:
        return data, (0, 0), (0, 0)
    return pad.source, (low[-2], low[-1]), (high[-2], high[-1])


def _phases(
    anchor: Operation, source: SSAValue, prefix: Sequence[int], axes: Sequence[_Phasing]
) -> SSAValue:
    """``source`` (``[N, ..., H, W]``) split into the phases of ``axes``: a tensor
    ``[*prefix, phases, phases, extent, extent]`` (``prefix`` the leading sizes, the batch
    ``N`` its first) holding each phase's elements of ``source``, zeros where a phase holds
    none (before and after ``source``). Only those zeros are written: a fill of the whole
    tensor was a second pass over it (MobileNetV2's 3 × 3 / 2 depthwise layers: ``memset``
    of 5 MB whose copies then overwrote 97%)."""
    vertical, horizontal = axes
    element = source.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    batch = prefix[0]
    images = []
    if batch == DYNAMIC_INDEX:
        axis = _insert(arith.ConstantOp(IntegerAttr(0, IndexType())), anchor)
        images = [_insert(tensor.DimOp(source, axis), anchor)]
    shape = [*prefix, vertical.phases, horizontal.phases, vertical.extent, horizontal.extent]
    phases = _insert(tensor.EmptyOp(images, TensorType(element, shape)), anchor)
    rank = len(shape)

    def block(
        into: SSAValue, row: int, column: int, rows: tuple[int, int], columns: tuple[int, int]
    ) -> tuple[SSAValue, list[int], list[int | SSAValue]]:
        """The block of phase ``(row, column)`` over ``[rows) × [columns)``, where it is
        and its sizes."""
        at = [0] * len(prefix) + [row, column, rows[0], columns[0]]
        extents = (rows[1] - rows[0], columns[1] - columns[0])
        sizes = [*(images or [batch]), *prefix[1:], 1, 1, *extents]
        block_type = TensorType(element, [*prefix, 1, 1, *extents])
        slice_op = tensor.ExtractSliceOp(into, at, sizes, [1] * rank, block_type)
        return _insert(slice_op, anchor), at, sizes

    held = [
        (row, column, vertical.copied(row), horizontal.copied(column))
        for row in range(vertical.phases)
        for column in range(horizontal.phases)
    ]
    zeros = [
        (row, column, box)
        for row, column, rows, columns in held
        for box in _zeros(rows, columns, vertical.extent, horizontal.extent)
    ]
    if zeros:
        zero = _insert(arith.ConstantOp(FloatAttr(0.0, element)), anchor)
    for row, column, box in zeros:
        filled, at, sizes = block(phases, row, column, *box)
        filled = _insert(fill_op(zero, filled), anchor)
        phases = _insert(insert_slice_op(filled, phases, at, sizes, [1] * rank), anchor)
    copies = [(row, column, r, c) for row, column, r, c in held if r[1] > 0 and c[1] > 0]
    kept = [AffineExpr.dimension(d) for d in range(len(source.type.get_shape()) - 2)]  # pyright: ignore
    y, x = AffineExpr.dimension(rank - 2), AffineExpr.dimension(rank - 1)
    for row, column, (first_row, rows, row_at), (first_column, columns, column_at) in copies:
        boxed = ((first_row, first_row + rows), (first_column, first_column + columns))
        target, at, sizes = block(phases, row, column, *boxed)
        read = source
        if vertical.stride == 1:  # an axis not split: its rows read as they are
            read = _rows_from(anchor, source, images, row_at, rows)
            row_at = 0
        spatial = (y * vertical.stride + row_at, x * horizontal.stride + column_at)
        reads = AffineMap(rank, 0, (*kept, *spatial))
        body = Block(arg_types=[element, element])
        body.add_op(YieldOp(body.args[0]))
        maps = ArrayAttr([AffineMapAttr(reads), AffineMapAttr(AffineMap.identity(rank))])
        copy = generic_op([read], [target], body, maps, ArrayAttr([PARALLEL] * rank))
        mark_loop(copy, _threads_loop(shape))
        phases = _insert(
            insert_slice_op(_insert(copy, anchor), phases, at, sizes, [1] * rank), anchor
        )
    return phases


def _rows_from(
    anchor: Operation, source: SSAValue, images: list[SSAValue], first: int, count: int
) -> SSAValue:
    """``count`` rows of ``source`` (``[N, ..., H, W]``) from row ``first``: ``source`` itself
    when they are all of its rows, else a slice. A copy reading the rows with unit stride and
    no offset must read a tensor of its rows (linalg infers the loop's size from a plain
    dimension: SqueezeNet's unpadded 3 × 3 / 2 stem reads 223 of its 224 rows)."""
    shape = list(source.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    if first == 0 and count == shape[-2]:
        return source
    offsets = [0] * len(shape)
    offsets[-2] = first
    sizes: list[int | SSAValue] = [*(images or shape[:1]), *shape[1:-2], count, shape[-1]]
    element = source.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    sliced = TensorType(element, [*shape[:-2], count, shape[-1]])
    return _insert(tensor.ExtractSliceOp(source, offsets, sizes, [1] * len(shape), sliced), anchor)


def _threads_loop(shape: Sequence[int]) -> int:
    """The loop of a phase's copy into ``[*prefix, phases, phases, rows, columns]`` that the
    threads share (`outer_threads.mark_loop`): the outermost of ``prefix`` long enough to share
    evenly (channels, filters), else the rows (a symbolic batch of one is not shared)."""
    even = PARTS_PER_THREAD * machine_cores()
    return next((d for d, size in enumerate(shape[:-4]) if size >= even), len(shape) - 2)


def _zeros(
    rows: tuple[int, int, int], columns: tuple[int, int, int], height: int, width: int
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The boxes ``([first, last) rows, [first, last) columns)`` of a ``height × width``
    phase that hold zeros, given the rows and columns of it that hold input elements (first,
    count, `_Phasing.copied`): the rows above and below them, and beside them the columns
    before and after."""
    (top, count_rows, _), (left, count_columns, _) = rows, columns
    if count_rows <= 0 or count_columns <= 0:
        return [((0, height), (0, width))]
    bottom, right = top + count_rows, left + count_columns
    boxes = [((0, top), (0, width)), ((bottom, height), (0, width))]
    boxes += [((top, bottom), (0, left)), ((top, bottom), (right, width))]
    return [(r, c) for r, c in boxes if r[0] < r[1] and c[0] < c[1]]


def _axes(op: ConvOperation) -> tuple[SSAValue, tuple[_Axis, _Axis]]:
    """The convolution's input before its padding, and its window's axes."""
    data, weight, init = op.operands
    source, before, after = _unpadded(data)
    *_, height, width = data.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    *_, taps_h, taps_w = weight.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    *_, out_h, out_w = init.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    vertical, horizontal = (
        _Axis(*sizes)
        for sizes in zip(
            (out_h, out_w),
            (taps_h, taps_w),
            _pair(op.strides),  # pyright: ignore[reportAttributeAccessIssue]
            _pair(op.dilations),  # pyright: ignore[reportAttributeAccessIssue]
            (height - before[0] - after[0], width - before[1] - after[1]),
            before,
            strict=True,
        )
    )
    return source, (vertical, horizontal)


def _replace(op: ConvOperation, new: Operation) -> None:
    """Replace the convolution by ``new`` (inserted before it); erase its padding if unused."""
    data = op.inputs[0]
    op.results[0].replace_all_uses_with(_insert(new, op))
    op.detach()
    op.erase()
    while isinstance(data.owner, Operation) and not data.uses:  # the padding, its reshape
        unused = data.owner
        data = unused.operands[0]
        unused.detach()
        unused.erase()


def _split_depthwise(op: Conv2DNgchwGfchwOp) -> None:
    """The depthwise convolution as an ``scf.forall`` over its images and channels, each
    point the channel's phases and the convolution of one channel over them (a generic
    marked `PHASED`): the phases of a channel are written and read while in the cache, and
    the input is read once (split for the whole tensor, they were written to memory and read
    back, and each phase's copy read the input's rows of its parity again)."""
    data, weight, init = op.operands
    source, (vertical, horizontal) = _axes(op)
    images, channels = data.type.get_shape()[:2]  # pyright: ignore[reportAttributeAccessIssue]
    rest = source.type.get_shape()[2:]  # pyright: ignore[reportAttributeAccessIssue]
    element = init.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    if images == DYNAMIC_INDEX:
        axis = _insert(arith.ConstantOp(IntegerAttr(0, IndexType())), op)
        images = _insert(tensor.DimOp(init, axis), op)
    block = _channels_a_point(channels, vertical.data, horizontal.data)
    body = Block(arg_types=[IndexType(), IndexType(), init.type])
    image, point, into = body.args
    if block == 1:
        channel = point
    else:
        size = arith.ConstantOp(IntegerAttr(block, IndexType()))
        first = arith.MuliOp(point, size)
        body.add_ops([size, first])
        channel = first.result
    one = [image, channel, *[0] * len(rest)]
    read = tensor.ExtractSliceOp(
        source,
        one,
        [1, block, *rest],
        [1] * (2 + len(rest)),
        TensorType(element, [1, block, *rest]),
    )
    *_, taps_h, taps_w = weight.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    window = [block, 1, 1, taps_h, taps_w]
    taps = tensor.ExtractSliceOp(
        weight, [channel, 0, 0, 0, 0], window, [1] * 5, TensorType(element, window)
    )
    *_, out_h, out_w = init.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    out = [1, block, 1, out_h, out_w]
    at = [image, channel, 0, 0, 0]
    write = tensor.ExtractSliceOp(into, at, out, [1] * 5, TensorType(element, out))
    end = InParallelOp([])
    body.add_ops([read, taps, write, end])
    accumulator = write.results[0]
    zero = _zeros_taken_out(init)
    if zero is not None:
        accumulator = _insert(fill_op(zero, accumulator), end)
    phases = _phases(end, read.results[0], [1, block, 1], (vertical.data, horizontal.data))
    n, g, f, oh, ow, c, kh, kw = (AffineExpr.dimension(d) for d in range(8))
    phase_h, row = vertical.read(oh, kh)
    phase_w, column = horizontal.read(ow, kw)
    maps = [
        AffineMap(8, 0, (n, g, c, phase_h, phase_w, row, column)),
        AffineMap(8, 0, (g, f, c, kh, kw)),
        AffineMap(8, 0, (n, g, f, oh, ow)),
    ]
    convolution = _insert(
        marked_convolution(op, [phases, taps.results[0]], accumulator, maps, 5, PHASED), end
    )
    loop = ForallOp([images, channels // block], [init], body)
    _replace(op, loop)
    result = _epilogue_moved_in(loop, convolution, end, [image, channel, 0, 0], block)
    end.body.block.add_op(ParallelInsertSliceOp(result, into, at, out))


POINT_BYTES = 16 * 1024
"""The most bytes of phases a point of a depthwise loop makes (half of a 32 KiB L1 data cache):
channels of small images are taken a few at a time (MobileNetV2's 960 × 7², 324 bytes of
phases a channel, 48 at a time), those of large ones one at a time."""


def _channels_a_point(channels: int, rows: _Phasing, columns: _Phasing) -> int:
    """The most channels, a divisor of ``channels``, whose f32 phases fit in `POINT_BYTES`
    (at least one)."""
    each = rows.phases * columns.phases * rows.extent * columns.extent * 4
    fits = max(1, POINT_BYTES // each)
    return max(d for d in range(1, min(fits, channels) + 1) if channels % d == 0)


def _epilogue_moved_in(
    loop: ForallOp,
    convolution: SSAValue,
    end: Operation,
    point: Sequence[SSAValue | int],
    channels: int,
) -> SSAValue:
    """Move the element-wise steps that write into the ``loop``'s result (its epilogue,
    `in_place_epilogues`) into it, each computing the slice of one image and channel
    (``point`` of the result's ``N × C × H × W``) after its ``convolution``, inserted
    before ``end``, over each channel's plane flattened (rows of 7 or 14 columns were vectors
    of 2 and 1 lanes); what the loop then writes. A step reading an operand through an other
    map than of the loops or zeros, or through part of the plane, stays after the loop, with
    the steps after it."""
    reshape = loop.results[0].get_user_of_unique_use()
    if not isinstance(reshape, tensor.CollapseShapeOp):
        return convolution
    value = reshape.result
    sizes = [1, channels, *value.type.get_shape()[2:]]  # pyright: ignore[reportAttributeAccessIssue]
    inner = _collapse(convolution, [[0], [1, 2], [3, 4]], end)
    steps: list[tuple[list[SSAValue], list[AffineMapAttr], Block]] = []
    step = value.get_user_of_unique_use()
    while isinstance(step, GenericOp) and list(step.outputs) == [value]:
        maps = step.indexing_maps.data[: len(step.inputs)]
        reads = [
            _read_slice(v, m.data, point, sizes, end)
            for v, m in zip(step.inputs, maps, strict=True)
        ]
        flat = [_plane_flattened(m.data) for m in maps]
        if None in reads or None in flat:
            break
        if any(i.data != IteratorType.PARALLEL for i in step.iterator_types):
            break
        flat_reads = [
            _collapse(r, _last_two_as_one(r), end) if m.data.results[-2:] == PLANE else r
            for r, m in zip(reads, maps, strict=True)
            if r is not None
        ]
        flat_maps = [AffineMapAttr(m) for m in flat if m is not None]
        steps.append((flat_reads, flat_maps, step.body.clone().detach_block(0)))
        step.results[0].replace_all_uses_with(value)
        step.detach()
        step.erase()
        step = value.get_user_of_unique_use()
    if steps:
        inner = _insert(_one_step(steps, inner), end)
    shape = convolution.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    expand = tensor.ExpandShapeOp(
        inner, [], reassociation([[0], [1, 2], [3, 4]]), shape, convolution.type
    )
    return _insert(expand, end)


PLANE = (AffineExpr.dimension(2), AffineExpr.dimension(3))
"""The last two results of a map reading an epilogue operand's plane (loops ``n, c, h, w``)."""


def _plane_flattened(reads: AffineMap) -> AffineMap | None:
    """``reads`` (of an epilogue's loops ``n, c, h, w``) over the loops ``n, c, h·w``: results
    ending in the plane's ``h, w`` (`PLANE`) end in ``h·w``, results without them are kept;
    None if it reads the plane otherwise."""
    results = reads.results
    flat = results[-2:] == PLANE
    rest = results[:-2] if flat else results
    if any(isinstance(e, AffineDimExpr) and e.position > 1 for e in rest):
        return None
    return AffineMap(3, 0, (*rest, AffineExpr.dimension(2)) if flat else rest)


def _last_two_as_one(value: SSAValue) -> list[list[int]]:
    """The reassociation collapsing the last two axes of ``value``."""
    rank = len(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    return [[axis] for axis in range(rank - 2)] + [[rank - 2, rank - 1]]


def _collapse(value: SSAValue, groups: list[list[int]], anchor: Operation) -> SSAValue:
    """``value`` with each of its axes ``groups`` collapsed into one, inserted before
    ``anchor``."""
    return _insert(collapse_op(value, groups), anchor)


def _one_step(
    steps: list[tuple[list[SSAValue], list[AffineMapAttr], Block]], into: SSAValue
) -> GenericOp:
    """The element-wise ``steps`` (each its inputs, their maps and its body, which reads its
    output) as one ``linalg.generic`` writing into ``into``: one pass over the slice, and
    each element stored once (a ReLU of its own, ``x > 0 ? x : 0`` written in place, became a
    masked store of the zeros)."""
    inputs = [value for reads, _, _ in steps for value in reads]
    element = into.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    types = [value.type.get_element_type() for value in inputs]  # pyright: ignore
    body = Block(arg_types=[*types, element])
    current: SSAValue = body.args[-1]
    taken = 0
    for reads, _, old in steps:
        count = len(reads)
        for arg, new in zip(old.args[:count], body.args[taken : taken + count], strict=True):
            arg.replace_all_uses_with(new)
        old.args[count].replace_all_uses_with(current)
        *ops, yielded = old.ops
        current = yielded.operands[0]
        for op in ops:
            op.detach()
            body.add_op(op)
        taken += count
    body.add_op(YieldOp(current))
    rank = len(into.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    maps = [m for _, input_maps, _ in steps for m in input_maps]
    maps.append(AffineMapAttr(AffineMap.identity(rank)))
    return generic_op(inputs, [into], body, ArrayAttr(maps), ArrayAttr([PARALLEL] * rank))


def _read_slice(
    value: SSAValue,
    reads: AffineMap,
    point: Sequence[SSAValue | int],
    sizes: Sequence[int],
    anchor: Operation,
) -> SSAValue | None:
    """The slice of ``value`` that an element-wise step reading it through ``reads`` reads
    at ``point`` (of loops of ``sizes`` there), inserted before ``anchor``; None if a result of
    ``reads`` is neither a loop nor zero."""
    offsets: list[SSAValue | int] = []
    extents: list[int] = []
    for expr in reads.results:
        if isinstance(expr, AffineDimExpr):
            offsets.append(point[expr.position])
            extents.append(sizes[expr.position])
        elif isinstance(expr, AffineConstantExpr) and expr.value == 0:
            offsets.append(0)
            extents.append(1)
        else:
            return None
    element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    result = TensorType(element, extents)
    return _insert(
        tensor.ExtractSliceOp(value, offsets, extents, [1] * len(extents), result), anchor
    )


def _zeros_taken_out(init: SSAValue) -> SSAValue | None:
    """If ``init`` is the reshape of a fill with zeros used only there, the zero, the fill
    taken out (each point of the depthwise loop fills its slice while in the cache: a
    ``memset`` of the whole result was a pass over memory of its own)."""
    reshape = init.owner
    if not isinstance(reshape, tensor.ExpandShapeOp) or not zero_filled(reshape.operands[0]):
        return None
    fill = reshape.operands[0].owner
    assert isinstance(fill, FillOp)
    if fill.results[0].get_user_of_unique_use() is None:
        return None
    reshape.operands[0] = fill.outputs[0]
    fill.detach()
    fill.erase()
    return fill.inputs[0]


def _as_channels(anchor: Operation, phases: SSAValue) -> SSAValue:
    """``[A, C, ph, pw, H, W]`` phases as ``[A, C·ph·pw, H, W]`` channels."""
    return _collapse(phases, [[0], [1, 2, 3], [4], [5]], anchor)


def _split_channels(op: Conv2DNchwFchwOp) -> None:
    """The convolution with unit column strides over its input's column phases as channels,
    with its weights split into the same phases; its rows keep their stride."""
    data, weight, init = op.operands
    source, (vertical, horizontal) = _axes(op)
    prefix = data.type.get_shape()[:2]  # pyright: ignore[reportAttributeAccessIssue]
    rows, window_rows = vertical.whole
    phases = _phases(op, source, prefix, (rows, horizontal.data))
    window = weight.type.get_shape()[:2]  # pyright: ignore[reportAttributeAccessIssue]
    taps = _phases(op, weight, window, (window_rows, horizontal.weights))
    strides = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [vertical.stride, 1])
    ones = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [1, 1])
    convolution = contraction_op(
        Conv2DNchwFchwOp,
        [_as_channels(op, phases), _as_channels(op, taps)],
        [init],
        {"strides": strides, "dilations": ones},
    )
    _replace(op, convolution)
