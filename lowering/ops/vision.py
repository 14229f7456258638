"""``relax.vision.roi_align`` → ``linalg.generic``s over the ``NCHW`` result.

As the reference (``topi.vision.roi_align``): one generic iterates over the result
(region, channel, bin row, bin column) and, as reduction loops, over the sampling
grid of a bin; its body reads the region's row of ``rois`` with
``tensor.extract``, computes the bin in the regions' data type, reads the sample
bilinearly from the 4 pixels around it, and adds it divided by the grid's size
(``avg``) or takes the maximum (``max``). With a fixed ``sample_ratio`` the grid is
the same for every region; else the reduction loops run to the largest grid of any
region (a reduction over the regions first) and each region uses the samples
within its own grid. A last generic converts to the data's type. ``NHWC`` data is
transposed to ``NCHW`` first and the result back. A run-time check rejects regions
whose batch index is outside the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, i1, i64
from xdsl.ir import SSAValue

from relax_dialect.dtype import INT64, DataType
from relax_dialect.numerics.arithmetic import lowest
from relax_dialect.ops.vision import ROIAlignOp, ROIAlignSettings

from ..lowerer import Lowerer
from ..type_conversion import element_type, tensor_type
from . import lowers
from .common import (
    PARALLEL,
    REDUCTION,
    FloatScalars,
    check_every,
    constant,
    convert,
    data_type,
    extract,
    extract_slice,
    fill,
    generic,
    generic_results,
    loop_indices,
    parallel,
    select,
    sizes_of,
    transpose,
)


class RegionSampler(FloatScalars):
    """Emits the scalar arithmetic of one output element, in the regions' type."""

    def __init__(
        self,
        lw: Lowerer,
        settings: ROIAlignSettings,
        dtype: DataType,
        data: SSAValue,
        data_dtype: DataType,
        sizes: Sequence[SSAValue],
    ) -> None:
        super().__init__(lw, dtype)
        self.settings = settings
        self.data, self.data_dtype, self.sizes = data, data_dtype, sizes

    def bilinear(self, batch: SSAValue, channel: SSAValue, y: SSAValue, x: SSAValue):
        """The reference's ``bilinear``: 0 beyond one pixel outside the image, else the
        4 pixels around the clamped point (those outside counting 0)."""
        lw, (height, width) = self.lw, self.sizes[2:]
        heights, widths = self.to_float(height), self.to_float(width)
        outside = self.op(arith.CmpfOp, y, self.f(-1), "olt")
        for value, bound, predicate in ((x, self.f(-1), "olt"), (y, heights, "ogt")):
            outside = self.op(arith.OrIOp, outside, self.op(arith.CmpfOp, value, bound, predicate))
        outside = self.op(arith.OrIOp, outside, self.op(arith.CmpfOp, x, widths, "ogt"))
        one = lw.constant_index(1)
        last_row = self.to_float(self.op(arith.SubiOp, height, one))
        last_column = self.to_float(self.op(arith.SubiOp, width, one))
        y = self.op(arith.MinimumfOp, self.op(arith.MaximumfOp, y, self.f(0)), last_row)
        x = self.op(arith.MinimumfOp, self.op(arith.MaximumfOp, x, self.f(0)), last_column)
        y_floor, x_floor = lw.make(math.FloorOp, y), lw.make(math.FloorOp, x)
        y_high, x_high = self.op(arith.SubfOp, y, y_floor), self.op(arith.SubfOp, x, x_floor)
        y_low = self.op(arith.SubfOp, self.f(1), y_high)
        x_low = self.op(arith.SubfOp, self.f(1), x_high)
        row, column = self.to_index(y_floor), self.to_index(x_floor)
        next_row, next_column = self.op(arith.AddiOp, row, one), self.op(arith.AddiOp, column, one)
        value = None
        for x_weight, c in ((x_low, column), (x_high, next_column)):
            for y_weight, r in ((y_low, row), (y_high, next_row)):
                term = self.op(
                    arith.MulfOp,
                    self.op(arith.MulfOp, x_weight, y_weight),
                    self.pixel(batch, channel, r, c),
                )
                inside = self.op(arith.AndIOp, self.below(r, height), self.below(c, width))
                term = select(lw, inside, term, self.f(0))
                value = term if value is None else self.op(arith.AddfOp, value, term)
        assert value is not None
        return select(lw, outside, self.f(0), value)

    def below(self, index: SSAValue, size: SSAValue) -> SSAValue:
        """``index < size`` (the index is never negative here)."""
        return self.op(arith.CmpiOp, index, size, "slt")

    def pixel(self, batch: SSAValue, channel: SSAValue, row: SSAValue, column: SSAValue):
        """The pixel at (row, column), clamped into the image (the caller masks it)."""
        lw, (height, width) = self.lw, self.sizes[2:]
        one = lw.constant_index(1)
        row = self.op(arith.MinSIOp, row, self.op(arith.SubiOp, height, one))
        column = self.op(arith.MinSIOp, column, self.op(arith.SubiOp, width, one))
        value = extract(lw, self.data, [batch, channel, row, column])
        return convert(lw, value, self.data_dtype, self.dtype)

    def region(self, rois: SSAValue, index: SSAValue) -> Region:
        """The bins of region ``index``: their origin, sizes and sampling grids."""
        lw, settings = self.lw, self.settings
        roi = [extract(lw, rois, [index, lw.constant_index(k)]) for k in range(5)]
        scale = self.f(settings.spatial_scale)
        start_w, start_h, end_w, end_h = (self.op(arith.MulfOp, v, scale) for v in roi[1:])
        size_h = self.op(arith.SubfOp, end_h, start_h)
        size_w = self.op(arith.SubfOp, end_w, start_w)
        if not settings.aligned:
            size_h = self.op(arith.MaximumfOp, size_h, self.f(1))
            size_w = self.op(arith.MaximumfOp, size_w, self.f(1))
        pooled_h, pooled_w = (self.f(p) for p in settings.pooled_size)
        bin_h = self.op(arith.DivfOp, size_h, pooled_h)
        bin_w = self.op(arith.DivfOp, size_w, pooled_w)
        if settings.sample_ratio > 0:
            grid_h = grid_w = lw.constant_index(settings.sample_ratio)
        else:
            grid_h, grid_w = (self.to_index(lw.make(math.CeilOp, b)) for b in (bin_h, bin_w))
        return Region(self.to_index(roi[0]), start_h, start_w, bin_h, bin_w, grid_h, grid_w)

    def element(self, rois: SSAValue, total: SSAValue) -> SSAValue:
        """``total`` combined with the sample at the current loop position (region,
        channel, bin row, bin column, sample row, sample column) when the region's
        grid has it."""
        lw, settings = self.lw, self.settings
        index, channel, ph, pw, rh, rw = loop_indices(lw, 6)
        region = self.region(rois, index)
        top = self.op(
            arith.AddfOp, region.start_h, self.op(arith.MulfOp, self.to_float(ph), region.bin_h)
        )
        left = self.op(
            arith.AddfOp, region.start_w, self.op(arith.MulfOp, self.to_float(pw), region.bin_w)
        )

        def offset(start: SSAValue, at: SSAValue, size: SSAValue, grid: SSAValue) -> SSAValue:
            centre = self.op(arith.AddfOp, self.to_float(at), self.f(0.5))
            step = self.op(arith.DivfOp, self.op(arith.MulfOp, centre, size), self.to_float(grid))
            return self.op(arith.AddfOp, start, step)

        y = offset(top, rh, region.bin_h, region.grid_h)
        x = offset(left, rw, region.bin_w, region.grid_w)
        sample = self.bilinear(region.batch, channel, y, x)
        used = self.op(arith.AndIOp, self.below(rh, region.grid_h), self.below(rw, region.grid_w))
        if settings.mode == "max":
            return self.op(arith.MaximumfOp, total, select(lw, used, sample, self.identity()))
        count = self.to_float(self.op(arith.MuliOp, region.grid_h, region.grid_w))
        share = select(lw, used, self.op(arith.DivfOp, sample, count), self.f(0))
        return self.op(arith.AddfOp, total, share)

    def identity(self) -> SSAValue:
        """The start of a bin's reduction: 0, or the lowest value for ``max``."""
        if self.settings.mode == "avg":
            return self.f(0)
        return constant(self.lw, lowest(self.dtype.to_numpy()), self.dtype)


@dataclass(frozen=True)
class Region:
    """The bins of one region (scalars of the lowered body)."""

    batch: SSAValue
    start_h: SSAValue
    start_w: SSAValue
    bin_h: SSAValue
    bin_w: SSAValue
    grid_h: SSAValue
    grid_w: SSAValue
    """The sampling grid of each bin (``index``)."""


def largest_grids(lw: Lowerer, sampler: RegionSampler, rois: SSAValue, batches: SSAValue):
    """The largest sampling grid (rows, columns) of any region: a reduction over the
    regions (the extent of the sample loops when the grids vary per region)."""
    if sampler.settings.sample_ratio > 0:
        return [lw.constant_index(sampler.settings.sample_ratio)] * 2
    zero = constant(lw, 0, INT64)
    inits = [fill(lw, zero, lw.empty(TensorType(i64, []), [])) for _ in range(2)]

    def body(lw: Lowerer, args: Sequence[SSAValue]) -> list[SSAValue]:
        [index] = loop_indices(lw, 1)
        region = sampler.region(rois, index)
        grids = (region.grid_h, region.grid_w)
        return [
            lw.make(arith.MaxSIOp, lw.make(arith.IndexCastOp, grid, i64), total)
            for grid, total in zip(grids, args[1:], strict=True)
        ]

    found = generic_results(lw, [batches], inits, [[0, None], [], []], [REDUCTION], body)
    return [lw.as_index(lw.make(tensor.ExtractOp, value, [], i64)) for value in found]


@lowers(ROIAlignOp)
def lower_roi_align(lw: Lowerer, op: ROIAlignOp) -> SSAValue:
    settings = op.settings()
    nhwc = settings.layout == "NHWC"
    result = lw.result_type(op)
    dtype, kind = data_type(op.data.type), data_type(op.rois.type)
    if not kind.is_float:
        lw.error(op, f"{op.name} cannot be lowered: the regions must be floats, got {kind}")
    data = lw.lowered(op.data)[0]
    data = transpose(lw, data, [0, 3, 1, 2]) if nhwc else data
    rois = lw.lowered(op.rois)[0]
    sizes = sizes_of(lw, data)
    count = sizes_of(lw, rois)[0]
    batches = extract_slice(lw, rois, [0, 0], [count, 1], [1, 1])

    def wrong_batch(lw: Lowerer, value: SSAValue) -> SSAValue:
        index = lw.make(arith.FPToSIOp, value, i64)
        return lw.make(arith.CmpiOp, lw.as_index(index), sizes[0], "uge")

    message = f"{op.name}: a region's batch index is outside the data"
    check_every(lw, batches, 2, wrong_batch, op, message)
    sampler = RegionSampler(lw, settings, kind, data, dtype, sizes)
    grid_h, grid_w = largest_grids(lw, sampler, rois, batches)
    pooled_h, pooled_w = settings.pooled_size
    pooled = [count, sizes[1], lw.constant_index(pooled_h), lw.constant_index(pooled_w)]
    nchw = TensorType(element_type(kind), [DYNAMIC_INDEX, DYNAMIC_INDEX, pooled_h, pooled_w])
    init = fill(lw, sampler.identity(), lw.empty(nchw, pooled))

    def body(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        return sampler.element(rois, args[1])

    iterators = [PARALLEL] * 4 + [REDUCTION] * 2
    samples = lw.empty(TensorType(i1, [DYNAMIC_INDEX, DYNAMIC_INDEX]), [grid_h, grid_w])
    maps = [[4, 5], [0, 1, 2, 3]]
    pooled_kind = generic(lw, [samples], init, maps, iterators, body)
    nchw_out = TensorType(element_type(dtype), [DYNAMIC_INDEX, DYNAMIC_INDEX, pooled_h, pooled_w])

    def finish(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        return convert(lw, xs[0], kind, dtype)

    out = parallel(lw, [pooled_kind], [[0, 1, 2, 3]], pooled, nchw_out, finish)
    out = transpose(lw, out, [0, 2, 3, 1]) if nhwc else out
    return lw.cast(out, tensor_type(result))
