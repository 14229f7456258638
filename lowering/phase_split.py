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

1. the phases: ``P[n, g, c, ph, pw, y, x] = x[n, g, c, y·sh + ph, x·sw + pw]``, one copy of
   the (padded) input, padded further with zeros where the last phase would read past it
   (ragged sizes only; the zeros are never read by the window);
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

from .building import generic_op, pad_op
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
    """The phases of one spatial axis of a window: ``o·stride + k·dilation`` for ``taps``
    values of ``k`` and ``outputs`` values of ``o``."""

    outputs: int
    taps: int
    stride: int
    dilation: int

    @property
    def phases(self) -> int:
        """The phases the taps read: ``0`` to the largest ``k·d mod s``."""
        return max(k * self.dilation % self.stride for k in range(self.taps)) + 1

    @property
    def extent(self) -> int:
        """The elements of each phase the window reads."""
        return self.outputs + (self.taps - 1) * self.dilation // self.stride

    @property
    def reach(self) -> int:
        """The input's elements the phases' copy reads."""
        return (self.extent - 1) * self.stride + self.phases

    def read(self, position: AffineExpr, tap: AffineExpr) -> tuple[AffineExpr, AffineExpr]:
        """The phase and the element within it of ``position · stride + tap · dilation``."""
        offset = tap * self.dilation
        if self.phases == 1:
            return AffineExpr.constant(0), position + offset // self.stride
        return offset % self.stride, position + offset // self.stride


def _insert(op: Operation, before: Operation) -> SSAValue:
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.results[0]


def _split(op: Conv2DNgchwGfchwOp) -> None:
    data, weight, init = op.operands
    data_type, out_type = data.type, init.type
    assert isinstance(data_type, TensorType) and isinstance(out_type, TensorType)
    batch, groups, _, height, width = data_type.get_shape()
    *_, taps_h, taps_w = weight.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    *_, out_h, out_w = out_type.get_shape()
    vertical, horizontal = (
        _Axis(outputs, taps, stride, dilation)
        for outputs, taps, stride, dilation in zip(
            (out_h, out_w),
            (taps_h, taps_w),
            _pair(op.strides),
            _pair(op.dilations),
            strict=True,
        )
    )
    element = out_type.get_element_type()
    if vertical.reach > height or horizontal.reach > width:  # ragged: the last phase's end
        high = [0, 0, 0, max(0, vertical.reach - height), max(0, horizontal.reach - width)]
        zero = _insert(arith.ConstantOp(FloatAttr(0.0, element)), op)
        padded = [batch, groups, 1, max(height, vertical.reach), max(width, horizontal.reach)]
        data = _insert(pad_op(data, [0] * 5, high, zero, TensorType(element, padded)), op)
    images = []
    if batch == DYNAMIC_INDEX:
        axis = _insert(arith.ConstantOp(IntegerAttr(0, IndexType())), op)
        images = [_insert(tensor.DimOp(data, axis), op)]
    phases_shape = [batch, groups, 1, vertical.phases, horizontal.phases]
    phases_shape += [vertical.extent, horizontal.extent]
    empty = _insert(tensor.EmptyOp(images, TensorType(element, phases_shape)), op)
    n, g, c, ph, pw, y, x = (AffineExpr.dimension(d) for d in range(7))
    reads = AffineMap(7, 0, (n, g, c, y * vertical.stride + ph, x * horizontal.stride + pw))
    copy_body = Block(arg_types=[element, element])
    copy_body.add_op(YieldOp(copy_body.args[0]))
    copy_maps = ArrayAttr([AffineMapAttr(reads), AffineMapAttr(AffineMap.identity(7))])
    phases = _insert(
        generic_op([data], [empty], copy_body, copy_maps, ArrayAttr([PARALLEL] * 7)), op
    )
    n, g, f, oh, ow, c, kh, kw = (AffineExpr.dimension(d) for d in range(8))
    phase_h, row = vertical.read(oh, kh)
    phase_w, column = horizontal.read(ow, kw)
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
