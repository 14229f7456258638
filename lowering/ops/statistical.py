"""Reductions → ``linalg.generic`` with reduction iterators; scans → ``scf.for``.

Numerics as the reference kernels: reductions compute in the data type
(integer sums wrap); ``bool`` sums and products are ``or`` and ``and``;
``max``/``min`` propagate NaN (``arith.maximumf``/``minimumf``) and start from
``-inf``/``inf`` (the integer bounds); ``mean`` divides the sum by the element
count, truncating integers; ``variance`` is the mean of the squared deviations
from that mean; ``std`` its square root (through ``f64`` for integers,
truncated back). ``mean``, ``variance`` and ``std`` count ``bool`` elements as
the ``i64`` values 0 and 1. A scan walks its axis with ``scf.for``, carrying
the running slice (``tensor.extract_slice``/``insert_slice``). ``median`` lays
the reduced axes last, flattened into one, and sorts it with the sorting
network of ``relax.sort`` to read the middle element (no element fails a
``cf.assert``).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, math, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.ir import Block, SSAValue

from relax_dialect.dtype import BOOL, INT64, DataType
from relax_dialect.numerics.arithmetic import highest, lowest
from relax_dialect.ops import statistical as ops
from relax_dialect.types import StructInfoType, TupleType

from ..lowerer import Lowerer, static_index
from ..type_conversion import element_type, tensor_type
from . import lowers
from .common import (
    PARALLEL,
    Combine,
    all_axes,
    constant,
    convert,
    data_type,
    element_count,
    extract_slice,
    fill,
    flatten,
    generic,
    insert_slice,
    parallel,
    pick,
    reduce,
    sizes_of,
    transpose,
)
from .manipulate import reshape
from .sorting import Network

FLOAT64 = DataType("float", 64)


def _combiner(float_op, int_op, uint_op, bool_op, dtype: DataType) -> Combine:
    op = bool_op if dtype.is_bool else pick(dtype, float_op, int_op, uint_op)
    return lambda lw, x, acc: lw.make(op, acc, x)


def _add(dtype: DataType) -> Combine:
    return _combiner(arith.AddfOp, arith.AddiOp, arith.AddiOp, arith.OrIOp, dtype)


def _mul(dtype: DataType) -> Combine:
    return _combiner(arith.MulfOp, arith.MuliOp, arith.MuliOp, arith.AndIOp, dtype)


REDUCTIONS: dict[type[ops.ReductionOp], tuple[Callable[[DataType], Combine], Callable]] = {
    ops.SumOp: (_add, lambda dtype: False if dtype.is_bool else 0),
    ops.ProdOp: (_mul, lambda dtype: True if dtype.is_bool else 1),
    ops.MaxOp: (
        lambda dt: _combiner(arith.MaximumfOp, arith.MaxSIOp, arith.MaxUIOp, arith.OrIOp, dt),
        lambda dtype: lowest(dtype.to_numpy(), finite=False),
    ),
    ops.MinOp: (
        lambda dt: _combiner(arith.MinimumfOp, arith.MinSIOp, arith.MinUIOp, arith.AndIOp, dt),
        lambda dtype: highest(dtype.to_numpy(), finite=False),
    ),
}
"""Each plain reduction's combiner and identity, by data type."""


@lowers(*REDUCTIONS)
def lower_reduction(lw: Lowerer, op: ops.ReductionOp) -> SSAValue:
    dtype = data_type(op.x.type)
    combine, identity = REDUCTIONS[type(op)]
    source = lw.lowered(op.x)[0]
    axes = all_axes(op.attr("axis"), op.x.type.rank)  # pyright: ignore[reportAttributeAccessIssue]
    start = constant(lw, identity(dtype), dtype)
    result, _ = reduce(lw, source, lw.dims(op.x), axes, op.attr("keepdims"), start, combine(dtype))
    return result


def _mean(
    lw: Lowerer,
    source: SSAValue,
    sizes: list[SSAValue],
    axes: list[int],
    keepdims: bool,
    dtype: DataType,
) -> tuple[SSAValue, list[SSAValue]]:
    """The mean over ``axes`` of a lowered tensor of ``dtype`` (not bool), in ``dtype``."""
    total, out_sizes = reduce(
        lw, source, sizes, axes, keepdims, constant(lw, 0, dtype), _add(dtype)
    )
    divisor = element_count(lw, [sizes[axis] for axis in axes], dtype)
    divide = pick(dtype, arith.DivfOp, arith.DivSIOp, arith.DivUIOp)
    identity = [list(range(len(out_sizes)))]

    def body(lw: Lowerer, xs) -> SSAValue:
        return lw.make(divide, xs[0], divisor)

    return parallel(lw, [total], identity, out_sizes, total.type, body), out_sizes


def _as_numbers(lw: Lowerer, source: SSAValue, dtype: DataType) -> tuple[SSAValue, DataType]:
    """A ``bool`` tensor as ``i64`` 0 and 1 (other data types unchanged)."""
    if not dtype.is_bool:
        return source, dtype
    shape = source.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    sizes = sizes_of(lw, source)
    identity = [list(range(len(shape)))]
    type = TensorType(element_type(INT64), shape)
    converted = parallel(
        lw, [source], identity, sizes, type, lambda lw, xs: convert(lw, xs[0], BOOL, INT64)
    )
    return converted, INT64


def _finish(lw: Lowerer, value: SSAValue, sizes, source: DataType, target: DataType) -> SSAValue:
    """A lowered tensor of ``source`` elements converted to ``target``."""
    if source == target:
        return value
    type = TensorType(element_type(target), value.type.get_shape())  # pyright: ignore
    identity = [list(range(len(sizes)))]
    return parallel(
        lw, [value], identity, sizes, type, lambda lw, xs: convert(lw, xs[0], source, target)
    )


@lowers(ops.MeanOp, ops.VarianceOp, ops.StdOp)
def lower_moment(lw: Lowerer, op: ops.ReductionOp) -> SSAValue:
    source, dtype = _as_numbers(lw, lw.lowered(op.x)[0], data_type(op.x.type))
    rank = op.x.type.rank  # pyright: ignore[reportAttributeAccessIssue]
    axes = all_axes(op.attr("axis"), rank)
    keepdims = op.attr("keepdims")
    sizes = lw.dims(op.x)
    result_dtype = lw.result_type(op).data_type
    if isinstance(op, ops.MeanOp):
        mean, out_sizes = _mean(lw, source, sizes, axes, keepdims, dtype)
        return _finish(lw, mean, out_sizes, dtype, result_dtype)
    mean, _ = _mean(lw, source, sizes, axes, True, dtype)
    mean_map = [None if a in axes else a for a in range(rank)]
    sub = pick(dtype, arith.SubfOp, arith.SubiOp)
    mul = pick(dtype, arith.MulfOp, arith.MuliOp)

    def squared_deviation(lw: Lowerer, xs) -> SSAValue:
        deviation = lw.make(sub, xs[0], xs[1])
        return lw.make(mul, deviation, deviation)

    squares = parallel(
        lw, [source, mean], [list(range(rank)), mean_map], sizes, source.type, squared_deviation
    )
    variance, out_sizes = _mean(lw, squares, sizes, axes, keepdims, dtype)
    if isinstance(op, ops.VarianceOp):
        return _finish(lw, variance, out_sizes, dtype, result_dtype)
    wide = FLOAT64 if not dtype.is_float else dtype

    def root(lw: Lowerer, xs) -> SSAValue:
        value = lw.make(math.SqrtOp, convert(lw, xs[0], dtype, wide))
        return convert(lw, value, wide, result_dtype)

    type = TensorType(element_type(result_dtype), variance.type.get_shape())  # pyright: ignore
    identity = [list(range(len(out_sizes)))]
    return parallel(lw, [variance], identity, out_sizes, type, root)


@lowers(ops.CumsumOp, ops.CumprodOp)
def lower_scan(lw: Lowerer, op: ops.ScanOp) -> SSAValue:
    """An ``scf.for`` along the axis carrying the result and the running slice (updated
    in place); ``exclusive`` stores the running slice before adding the element."""
    result = lw.result_type(op)
    source_dtype, dtype = data_type(op.data.type), result.data_type
    data = lw.lowered(op.data)[0]
    axis: int | None = op.attr("axis")
    if axis is None:
        data, axis = flatten(lw, data), 0
    sizes = sizes_of(lw, data)
    rank = len(sizes)
    axis %= rank
    shape = list(data.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    identity_map = list(range(rank))
    if source_dtype != dtype:
        converted = TensorType(element_type(dtype), shape)
        data = parallel(
            lw,
            [data],
            [identity_map],
            sizes,
            converted,
            lambda lw, xs: convert(lw, xs[0], source_dtype, dtype),
        )
    combine_of, identity = REDUCTIONS[op.REDUCTION]
    combine = combine_of(dtype)
    slice_sizes = [
        1 if a == axis else (s if s != DYNAMIC_INDEX else sizes[a]) for a, s in enumerate(shape)
    ]
    slice_type = TensorType(
        element_type(dtype), [1 if a == axis else s for a, s in enumerate(shape)]
    )
    running = fill(lw, constant(lw, identity(dtype), dtype), lw.empty(slice_type, sizes))
    out = lw.empty(data.type, sizes)
    exclusive = bool(op.attr("exclusive"))
    block = Block(arg_types=[IndexType(), out.type, slice_type])
    with lw.inside(block):
        i, out_i, running_i = block.args
        offsets = [i if a == axis else 0 for a in range(rank)]
        element = extract_slice(lw, data, offsets, slice_sizes, [1] * rank)
        if exclusive:
            out_i = insert_slice(lw, running_i, out_i, offsets, slice_sizes)
        running_i = generic(
            lw,
            [element],
            running_i,
            [identity_map, identity_map],
            [PARALLEL] * rank,
            lambda lw, xs: combine(lw, xs[0], xs[1]),
        )
        if not exclusive:
            out_i = insert_slice(lw, running_i, out_i, offsets, slice_sizes)
        lw.emit(scf.YieldOp(out_i, running_i))
    zero, one = lw.constant_index(0), lw.constant_index(1)
    loop = lw.emit(scf.ForOp(zero, sizes[axis], one, [out, running], block))
    return lw.cast(loop.results[0], tensor_type(result))


@lowers(ops.MedianOp)
def lower_median(lw: Lowerer, op: ops.MedianOp) -> SSAValue | list[SSAValue]:
    sinfo = lw.result_sinfo
    results = list(sinfo.types) if isinstance(sinfo, TupleType) else [sinfo]
    sizes = lw.dims(op.x)
    reduced = all_axes(op.attr("axis"), len(sizes))
    kept = [a for a in range(len(sizes)) if a not in reduced]
    count = lw.product([sizes[a] for a in reduced])
    some = lw.make(arith.CmpiOp, count, lw.constant_index(0), "sgt")
    lw.check(some, op, f"{op.name}: the median of no elements")
    moved = transpose(lw, lw.operand(op, 0), [*kept, *reduced])
    row_sizes = [*(sizes[a] for a in kept), count]
    static = [static_index(size) for size in row_sizes]
    element = moved.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    row_shape = [DYNAMIC_INDEX if s is None else s for s in static]
    rows = reshape(lw, moved, row_sizes, TensorType(element, row_shape))
    network = Network(lw, rows, row_sizes, len(kept), data_type(op.x.type), descending=False)
    middle = lw.make(
        arith.DivUIOp, lw.make(arith.SubiOp, count, lw.constant_index(1)), lw.constant_index(2)
    )
    at = [*([0] * len(kept)), middle]
    picked = [size if s is None else s for size, s in zip(row_sizes[:-1], static, strict=False)]
    picked.append(1)
    keepdims = op.attr("keepdims")
    out_sizes = [
        lw.constant_index(1) if a in reduced else size
        for a, size in enumerate(sizes)
        if keepdims or a in kept
    ]

    def middle_of(ordered: SSAValue, result: StructInfoType) -> SSAValue:
        piece = extract_slice(lw, ordered, at, picked, [1] * len(at))
        return reshape(lw, piece, out_sizes, tensor_type(result))

    found = [middle_of(o, r) for o, r in zip(network.sort(), results, strict=False)]
    return found if isinstance(sinfo, TupleType) else found[0]
