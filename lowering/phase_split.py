"""Strided windows split into phases, so that every window reads its input with unit stride
(native code: the tiling schedule's kernels, `units`).

A window of stride ``s`` and dilation ``d`` reads, for output ``o`` and tap ``k``, the input
at ``o·s + k·d = (o + ⌊k·d / s⌋)·s + (k·d mod s)``: element ``o + ⌊k·d / s⌋`` of *phase*
``k·d mod s``, the input's elements ``r, r + s, r + 2s, ...`` for ``r = k·d mod s``. With the
input copied once into its phases, each tap reads consecutive elements of one phase where it
read every ``s``-th element of the input: MLIR's vectoriser refuses those strided reads
("Attempted to vectorize, but failed", after which mlir-opt-22 crashed), the unit-stride
ones it vectorises.

So a depthwise convolution (``linalg.conv_2d_ngchw_gfchw`` with one input and one output
channel per group) of f32 with a stride other than one and sizes static but the batch
becomes:

1. the phases: ``P[n, g, c, ph, pw, y, x] = x[n, g, c, y·sh + ph, x·sw + pw]`` of the padded
   input, one copy per phase of the input elements it holds, from the input before its
   padding (the kernel holds the ``tensor.pad``, `kernels`), into a tensor filled with zeros
   if there is padding: one pass where padding then splitting took two;
2. the convolution reading ``P[n, g, c, kh·dh mod sh, kw·dw mod sw, oh + ⌊kh·dh / sh⌋,
   ow + ⌊kw·dw / sw⌋]``, a ``linalg.generic`` marked `PHASED` that the depthwise schedule
   (`schedules/depthwise.py`) tiles as the unit-stride ones: strips of output rows in vector
   registers, one tap at a time, each tap a unit-stride strip of one phase.

IREE's input (`iree_input`) never sees it: this runs on the native backend's kernel units.
"""

from __future__ import annotations

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
    UnitAttr,
)
from xdsl.dialects.linalg.ops import Conv2DNgchwGfchwOp, YieldOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from .building import fill_op, generic_op, insert_slice_op
from .ops.common import PARALLEL, REDUCTION
from .schedules.depthwise import PHASED


def split_phases(module: ModuleOp) -> None:
    """Rewrite (in place) the strided depthwise convolutions of ``module`` to read their
    input split into phases."""
    for op in [op for op in module.walk() if isinstance(op, Conv2DNgchwGfchwOp)]:
        if _splits(op):
            _split(op)


def _pair(attr: DenseIntOrFPElementsAttr) -> tuple[int, int]:
    first, second = (int(v) for v in attr.get_values())
    return first, second


def _splits(op: Conv2DNgchwGfchwOp) -> bool:
    """A depthwise f32 convolution with a stride other than one, its sizes static but the
    batch (what the depthwise schedule's strips need)."""
    data, weight, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(weight, TensorType)
    assert isinstance(out, TensorType)
    sizes = (*data.get_shape()[1:], *weight.get_shape(), *out.get_shape()[1:])
    _, filters, channels, _, _ = weight.get_shape()
    return (
        isinstance(out.get_element_type(), Float32Type)
        and DYNAMIC_INDEX not in sizes
        and filters == channels == 1
        and _pair(op.strides) != (1, 1)
    )


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
    def extent(self) -> int:
        """The elements of each phase the window reads."""
        return self.outputs + (self.taps - 1) * self.dilation // self.stride

    def read(self, position: AffineExpr, tap: AffineExpr) -> tuple[AffineExpr, AffineExpr]:
        """The phase and the element within it of ``position · stride + tap · dilation``."""
        offset = tap * self.dilation
        if self.phases == 1:
            return AffineExpr.constant(0), position + offset // self.stride
        return offset % self.stride, position + offset // self.stride

    def copied(self, phase: int) -> tuple[int, int, int]:
        """The first element of ``phase`` that is an input element (not padding), how many
        are, and where the first is in the input."""
        first = max(0, -((phase - self.before) // self.stride))
        last = min(self.extent - 1, (self.size - 1 + self.before - phase) // self.stride)
        return first, last - first + 1, first * self.stride + phase - self.before


def _insert(op: Operation, before: Operation) -> SSAValue:
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.results[0]


def _unpadded(data: SSAValue) -> tuple[SSAValue, tuple[int, int], tuple[int, int]]:
    """The input the convolution's ``data`` pads with zeros (through the grouping reshape,
    the kernel holding the padding, `kernels`), and the zeros before and after its rows and
    columns; ``data`` itself and no zeros if it is not such a padding."""
    pad = data.owner.operands[0].owner if isinstance(data.owner, tensor.ExpandShapeOp) else None
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
    op: Conv2DNgchwGfchwOp, axes: tuple[_Axis, _Axis], source: SSAValue, padded: bool
) -> SSAValue:
    """The phases of the convolution's input: each phase's input elements copied from
    ``source`` (the unpadded input), zeros elsewhere if ``padded`` (elsewhere they are past the
    input's end, where no tap reads)."""
    vertical, horizontal = axes
    batch, groups = op.outputs[0].type.get_shape()[:2]  # pyright: ignore[reportAttributeAccessIssue]
    element = op.outputs[0].type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    images = []
    if batch == DYNAMIC_INDEX:
        axis = _insert(arith.ConstantOp(IntegerAttr(0, IndexType())), op)
        images = [_insert(tensor.DimOp(source, axis), op)]
    shape = [batch, groups, 1, vertical.phases, horizontal.phases]
    shape += [vertical.extent, horizontal.extent]
    phases = _insert(tensor.EmptyOp(images, TensorType(element, shape)), op)
    if padded:
        zero = _insert(arith.ConstantOp(FloatAttr(0.0, element)), op)
        phases = _insert(fill_op(zero, phases), op)
    n, g, c, _, _, y, x = (AffineExpr.dimension(d) for d in range(7))
    for row_phase in range(vertical.phases):
        for column_phase in range(horizontal.phases):
            first_row, rows, row = vertical.copied(row_phase)
            first_column, columns, column = horizontal.copied(column_phase)
            if rows <= 0 or columns <= 0:
                continue
            at = [0, 0, 0, row_phase, column_phase, first_row, first_column]
            sizes = [*(images or [batch]), groups, 1, 1, 1, rows, columns]
            block_type = TensorType(element, [batch, groups, 1, 1, 1, rows, columns])
            block = _insert(tensor.ExtractSliceOp(phases, at, sizes, [1] * 7, block_type), op)
            spatial = (y * vertical.stride + row, x * horizontal.stride + column)
            channels = (n, g) if len(source.type.get_shape()) == 4 else (n, g, c)  # pyright: ignore
            reads = AffineMap(7, 0, (*channels, *spatial))
            body = Block(arg_types=[element, element])
            body.add_op(YieldOp(body.args[0]))
            maps = ArrayAttr([AffineMapAttr(reads), AffineMapAttr(AffineMap.identity(7))])
            copy = _insert(generic_op([source], [block], body, maps, ArrayAttr([PARALLEL] * 7)), op)
            phases = _insert(insert_slice_op(copy, phases, at, sizes, [1] * 7), op)
    return phases


def _split(op: Conv2DNgchwGfchwOp) -> None:
    data, weight, init = op.operands
    source, before, after = _unpadded(data)
    *_, height, width = data.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    *_, taps_h, taps_w = weight.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    *_, out_h, out_w = init.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    axes = tuple(
        _Axis(*sizes)
        for sizes in zip(
            (out_h, out_w),
            (taps_h, taps_w),
            _pair(op.strides),
            _pair(op.dilations),
            (height - before[0] - after[0], width - before[1] - after[1]),
            before,
            strict=True,
        )
    )
    assert len(axes) == 2
    phases = _phases(op, axes, source, before != (0, 0) or after != (0, 0))
    n, g, f, oh, ow, c, kh, kw = (AffineExpr.dimension(d) for d in range(8))
    phase_h, row = axes[0].read(oh, kh)
    phase_w, column = axes[1].read(ow, kw)
    maps = [
        AffineMap(8, 0, (n, g, c, phase_h, phase_w, row, column)),
        AffineMap(8, 0, (g, f, c, kh, kw)),
        AffineMap(8, 0, (n, g, f, oh, ow)),
    ]
    convolution = generic_op(
        [phases, weight],
        [init],
        op.body.detach_block(0),
        ArrayAttr([AffineMapAttr(m) for m in maps]),
        ArrayAttr([PARALLEL] * 5 + [REDUCTION] * 3),
    )
    convolution.attributes[PHASED] = UnitAttr()
    op.results[0].replace_all_uses_with(_insert(convolution, op))
    op.detach()
    op.erase()
    while isinstance(data.owner, Operation) and not data.uses:  # the padding, its reshape
        unused = data.owner
        data = unused.operands[0]
        unused.detach()
        unused.erase()
