"""Pooling → window ``linalg.generic``s, region by region of the output.

Maximum and average pooling read the padded data (the data type's lowest value,
or zeros for averages; ``ceil_mode`` pads ``stride - 1`` more elements after, as
the reference does) through ``p * stride + k * dilation`` and reduce over the
window loops, whose extent a ``tensor.empty`` of the window shape gives (as
linalg's named pooling operations do; those are not used: xDSL 0.74 builds
``linalg.pooling_nchw_max`` with a wrong body). Maxima use ``arith.maximumf``
(NaN propagates), sums are in the data type; an average divides by topi's count
of window elements, computed per output position with ``linalg.index`` (with or
without the padding, ``count_include_pad``), truncating integers. Adaptive
average pooling sums each axis in turn over its windows ``[floor(i * in / out),
ceil((i + 1) * in / out))`` (a select on ``linalg.index``), then divides by the
product of the window sizes.

Where the data's spatial sizes are static, nothing pads the whole data: the output is split
into its interior and its borders (`pool_regions`), each region a generic into a slice of one
``tensor.empty`` (filled and inserted back, in place), the interior's reading the data itself,
each border's a slice of it padded with the rows or columns its windows reach beyond it
(native code outlines the regions as one kernel, `kernels`). Otherwise the data is padded
whole (``tensor.pad``) and one generic reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType, i64
from xdsl.ir import SSAValue

from relax_dialect.dtype import INT64, DataType
from relax_dialect.numerics.arithmetic import lowest
from relax_dialect.ops.pooling import OPERATIONS as POOLS
from relax_dialect.ops.pooling import AdaptiveAvgPoolOp, AvgPoolOp, PoolOp, PoolSettings
from relax_dialect.prim_expr import IntImm, PrimExpr

from ..lowerer import Lowerer
from ..type_conversion import element_type, tensor_type
from . import lowers
from .common import (
    PARALLEL,
    REDUCTION,
    constant,
    convert,
    data_type,
    emit_op,
    extract_slice,
    fill,
    generic,
    insert_slice,
    loop_indices,
    mixed,
    pad,
    parallel,
    pick,
    select,
    sizes_of,
)
from .convolution import builtin_type, from_canonical, sliding, to_canonical, window_counts
from .pool_regions import pool_regions, window_reads


def _int(lw: Lowerer, value: int) -> SSAValue:
    return lw.constant_index(value)


def _as_dtype(lw: Lowerer, index: SSAValue, dtype: DataType) -> SSAValue:
    return convert(lw, lw.make(arith.IndexCastOp, index, i64), INT64, dtype)


def _divide(lw: Lowerer, dtype: DataType, total: SSAValue, count: SSAValue) -> SSAValue:
    """``total / count`` (an ``index``) as the reference's ``truncating_divide``."""
    divide = pick(dtype, arith.DivfOp, arith.DivSIOp, arith.DivUIOp)
    return lw.make(divide, total, _as_dtype(lw, count, dtype))


def _window_count(
    lw: Lowerer,
    position: SSAValue,
    size: SSAValue,
    axis: tuple[int, int, int, int, int],
    include_pad: bool,
) -> SSAValue:
    """topi's number of elements the window at ``position`` averages along an axis of
    ``size`` elements (``axis``: window, stride, dilation, padding before and after)."""
    window, stride, dilation, before, after = axis
    start = emit_op(
        lw, arith.SubiOp, emit_op(lw, arith.MuliOp, position, _int(lw, stride)), _int(lw, before)
    )
    last = emit_op(lw, arith.AddiOp, start, _int(lw, (window - 1) * dilation))
    step = _int(lw, dilation)
    if include_pad:
        bound = emit_op(lw, arith.AddiOp, size, _int(lw, after - 1))
        first = start
    else:
        bound = emit_op(lw, arith.SubiOp, size, _int(lw, 1))
        skipped = emit_op(
            lw, arith.DivSIOp, emit_op(lw, arith.SubiOp, _int(lw, dilation - 1), start), step
        )
        skipped = emit_op(lw, arith.MaxSIOp, skipped, _int(lw, 0))
        first = emit_op(lw, arith.AddiOp, start, emit_op(lw, arith.MuliOp, skipped, step))
    end = emit_op(lw, arith.MinSIOp, last, bound)
    span = emit_op(lw, arith.DivSIOp, emit_op(lw, arith.SubiOp, end, first), step)
    return emit_op(lw, arith.AddiOp, span, _int(lw, 1))


@lowers(*(op for op in POOLS if issubclass(op, PoolOp)))
def lower_pool(lw: Lowerer, op: PoolOp) -> SSAValue:
    settings = op.settings()
    layout, out_layout = op.layouts()
    canonical = op.canonical_layout()
    dtype = data_type(op.data.type)
    average = isinstance(op, AvgPoolOp)
    x, (n, c, *sizes) = to_canonical(lw, op, op.data, layout, canonical, "data")
    spatial = len(sizes)
    extra = [s - 1 if settings.ceil_mode else 0 for s in settings.strides]
    after = [a + e for a, e in zip(settings.pad_after, extra, strict=True)]
    axes = [(s, d, b, a) for _, s, d, b, a in settings.axes()]
    counts = window_counts(sizes, settings.pool_size, axes, settings.ceil_mode)
    out_dims: list[PrimExpr] = [n, c, *counts]
    out_sizes = [lw.index_of(d) for d in out_dims]
    pool = _Pool(settings, dtype, average)
    static = [d.value for d in (*sizes, *counts) if isinstance(d, IntImm)]
    if len(static) == 2 * spatial:
        out = pool.by_regions(lw, x, [n, c], static[:spatial], static[spatial:])
    else:
        padded = pad(lw, x, [0, 0, *settings.pad_before], [0, 0, *after], pool.padding(lw))
        out = pool.region(lw, padded, lw.empty(builtin_type(out_dims, dtype), out_sizes))
    if average:
        data_sizes = [lw.index_of(d) for d in sizes]

        def divide(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
            loops = loop_indices(lw, 2 + spatial)[2:]
            count = _int(lw, 1)
            for position, size, axis in zip(loops, data_sizes, settings.axes(), strict=True):
                factor = _window_count(lw, position, size, axis, settings.count_include_pad)
                count = emit_op(lw, arith.MuliOp, count, factor)
            count = emit_op(lw, arith.MaxSIOp, count, _int(lw, 1))
            return _divide(lw, dtype, xs[0], count)

        out = parallel(lw, [out], [list(range(2 + spatial))], out_sizes, out.type, divide)
    out = from_canonical(lw, out, out_dims, out_layout, canonical, dtype)
    return lw.cast(out, tensor_type(lw.result_type(op)))


@dataclass(frozen=True)
class _Pool:
    """A pooling's windows and its reduction: maxima (or, for Booleans, any) from the lowest
    value, or sums from zero."""

    settings: PoolSettings
    dtype: DataType
    average: bool

    def padding(self, lw: Lowerer) -> SSAValue:
        """What the padding holds: zeros for sums, the data type's lowest value for maxima."""
        return constant(lw, 0 if self.average else lowest(self.dtype.to_numpy()), self.dtype)

    def region(self, lw: Lowerer, padded: SSAValue, into: SSAValue) -> SSAValue:
        """The windows of the canonical ``padded`` data, reduced into the tensor ``into``
        (whose size is their count)."""
        dtype, settings = self.dtype, self.settings
        if self.average:
            start = constant(lw, 0, dtype)
            combine = pick(dtype, arith.AddfOp, arith.AddiOp)
        else:
            start = constant(lw, lowest(dtype.to_numpy(), finite=False), dtype)
            combine = pick(dtype, arith.MaximumfOp, arith.MaxSIOp, arith.MaxUIOp)
            if dtype.is_bool:
                combine = arith.OrIOp
        init = fill(lw, start, into)
        spatial = len(settings.pool_size)
        key = ("pool window", settings.pool_size, self.dtype)
        window = lw.shared(key, lambda: self._window(lw))
        positions = list(range(2, 2 + spatial))
        taps = list(range(2 + spatial, 2 + 2 * spatial))
        reads = [
            0,
            1,
            *(
                sliding(p, t, s, d)
                for p, t, s, d in zip(
                    positions, taps, settings.strides, settings.dilation, strict=True
                )
            ),
        ]
        return generic(
            lw,
            [padded, window],
            init,
            [reads, taps, [0, 1, *positions]],
            [PARALLEL] * (2 + spatial) + [REDUCTION] * spatial,
            lambda lw, xs: lw.make(combine, xs[2], xs[0]),
        )

    def _window(self, lw: Lowerer) -> SSAValue:
        """A ``tensor.empty`` of the window's shape: it gives the window loops' extent."""
        sizes = self.settings.pool_size
        window_type = TensorType(element_type(self.dtype), list(sizes))
        return lw.empty(window_type, [lw.constant_index(k) for k in sizes])

    def by_regions(
        self,
        lw: Lowerer,
        x: SSAValue,
        batch: Sequence[PrimExpr],
        sizes: Sequence[int],
        counts: Sequence[int],
    ) -> SSAValue:
        """The windows of data of static spatial ``sizes``, region by region of the output
        (`pool_regions`), inserted into one output tensor (a single region is the output)."""
        regions = pool_regions(self.settings.axes(), sizes, counts)
        if len(regions) == 1:
            return self._region_of(lw, x, batch, sizes, regions[0])
        out_dims = [*batch, *(IntImm(k) for k in counts)]
        out = lw.empty(builtin_type(out_dims, self.dtype), [lw.index_of(d) for d in out_dims])
        for region in regions:
            offsets = [0, 0, *(first for first, _ in region)]
            region_sizes = [*(mixed(lw, d) for d in batch), *(b - a for a, b in region)]
            pooled = self._region_of(lw, x, batch, sizes, region)
            out = insert_slice(lw, pooled, out, offsets, region_sizes)
        return out

    def _region_of(
        self,
        lw: Lowerer,
        x: SSAValue,
        batch: Sequence[PrimExpr],
        sizes: Sequence[int],
        region: Sequence[tuple[int, int]],
    ) -> SSAValue:
        """The windows of one region of the output: they read a slice of the data, padded
        only where they reach outside it."""
        reads = [
            window_reads(span, axis, size)
            for span, axis, size in zip(region, self.settings.axes(), sizes, strict=True)
        ]
        data = x
        if any(r[0] or r[1] - r[0] != size for r, size in zip(reads, sizes, strict=True)):
            starts = [0, 0, *(start for start, _, _, _ in reads)]
            extents = [*(mixed(lw, d) for d in batch), *(end - start for start, end, _, _ in reads)]
            data = extract_slice(lw, x, starts, extents, [1] * len(starts))
        low = [before for _, _, before, _ in reads]
        high = [after for _, _, _, after in reads]
        data = pad(lw, data, [0, 0, *low], [0, 0, *high], self.padding(lw))
        dims = [*batch, *(IntImm(last - first) for first, last in region)]
        into = lw.empty(builtin_type(dims, self.dtype), [lw.index_of(d) for d in dims])
        return self.region(lw, data, into)


def _window_bounds(
    lw: Lowerer, index: SSAValue, size: SSAValue, count: SSAValue
) -> tuple[SSAValue, SSAValue]:
    """Window ``index`` of ``count`` over ``size`` elements: ``[floor(index * size /
    count), ceil((index + 1) * size / count))``."""
    start = emit_op(lw, arith.FloorDivSIOp, emit_op(lw, arith.MuliOp, index, size), count)
    next_index = emit_op(lw, arith.AddiOp, index, _int(lw, 1))
    numerator = emit_op(lw, arith.MuliOp, next_index, size)
    rounded = emit_op(lw, arith.AddiOp, numerator, emit_op(lw, arith.SubiOp, count, _int(lw, 1)))
    return start, emit_op(lw, arith.FloorDivSIOp, rounded, count)


@lowers(*(op for op in POOLS if issubclass(op, AdaptiveAvgPoolOp)))
def lower_adaptive_pool(lw: Lowerer, op: AdaptiveAvgPoolOp) -> SSAValue:
    layout, out_layout = op.layouts()
    canonical = op.canonical_layout()
    dtype = data_type(op.data.type)
    x, dims = to_canonical(lw, op, op.data, layout, canonical, "data")
    given = op.output_size_values()
    targets: list[PrimExpr] = list(dims[2:]) if given is None else [IntImm(s) for s in given]
    rank = len(dims)
    in_sizes = [lw.index_of(d) for d in dims[2:]]
    add = pick(dtype, arith.AddfOp, arith.AddiOp)
    zero = constant(lw, 0, dtype)
    current = list(dims)
    for k, target in enumerate(targets):
        axis = 2 + k
        size, count = in_sizes[k], lw.index_of(target)
        current[axis] = target
        out_sizes = [lw.index_of(d) for d in current]
        init = fill(lw, zero, lw.empty(builtin_type(current, dtype), out_sizes))

        def body(lw: Lowerer, xs: Sequence[SSAValue], axis=axis, size=size, count=count):
            loops = loop_indices(lw, rank + 1)
            start, end = _window_bounds(lw, loops[axis], size, count)
            tap = loops[rank]
            inside = emit_op(
                lw,
                arith.AndIOp,
                lw.make(arith.CmpiOp, tap, start, "sge"),
                lw.make(arith.CmpiOp, tap, end, "slt"),
            )
            return lw.make(add, xs[1], select(lw, inside, xs[0], zero))

        reads = [rank if a == axis else a for a in range(rank)]
        iterators = [PARALLEL] * rank + [REDUCTION]
        x = generic(lw, [x], init, [reads, list(range(rank))], iterators, body)
    out_sizes = sizes_of(lw, x)
    counts = [lw.index_of(t) for t in targets]

    def divide(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        loops = loop_indices(lw, rank)[2:]
        total = _int(lw, 1)
        for index, size, count in zip(loops, in_sizes, counts, strict=True):
            start, end = _window_bounds(lw, index, size, count)
            total = emit_op(lw, arith.MuliOp, total, emit_op(lw, arith.SubiOp, end, start))
        return _divide(lw, dtype, xs[0], total)

    out = parallel(lw, [x], [list(range(rank))], out_sizes, x.type, divide)
    out = from_canonical(lw, out, current, out_layout, canonical, dtype)
    return lw.cast(out, tensor_type(lw.result_type(op)))
