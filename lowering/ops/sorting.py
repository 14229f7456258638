"""Sorting operators → a bitonic sorting network over ``scf.for`` loops.

``sort``, ``argsort`` and ``topk`` sort (value, index) pairs along the axis. The
axis is padded to a power of two ``P`` (``tensor.insert_slice`` into a filled
tensor; padding elements have indices ``>= n`` and sort last); an outer
``scf.for`` over ``log2 P`` merge levels and an inner one over their steps run
one element-wise ``linalg.generic`` per step, in which each element reads its
partner (index ``i xor j``, ``tensor.extract``) and keeps the one its position
wants. That is ``O(P log² P)`` work in ``log P (log P + 1) / 2`` vectorisable
steps.

The order is the reference kernels' (TVM's stable sort; NumPy's NaN handling):
ascending, NaN after every number; descending, NaN before every number; equal
elements (and NaNs among themselves) in input order, which the index
comparison makes a strict total order, so the unstable network sorts stably.
``topk`` takes the first ``k`` of the descending (``largest``) or ascending
order; an axis whose symbolic length the result type fixes to ``k`` is checked
to be at least ``k``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, i64
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import SSAValue

from relax_dialect.dtype import BOOL, INT64, DataType
from relax_dialect.ops import sorting as ops
from relax_dialect.prim_expr import IntImm

from ..lowerer import INDEX, Lowerer
from ..type_conversion import tensor_type
from . import lowers
from .common import (
    PARALLEL,
    compare,
    constant,
    convert,
    data_type,
    extract,
    extract_slice,
    fill,
    for_loop,
    generic_results,
    insert_slice,
    loop_indices,
    parallel,
    select,
)


class Network:
    """Emits the sorting network for one lowered tensor along one axis."""

    def __init__(
        self,
        lw: Lowerer,
        data: SSAValue,
        sizes: list[SSAValue],
        axis: int,
        dtype: DataType,
        descending: bool,
    ):
        self.lw, self.data, self.sizes, self.axis = lw, data, sizes, axis
        self.dtype, self.descending = dtype, descending

    def sort(self) -> tuple[SSAValue, SSAValue]:
        """The padded sorted values and their (``i64``) input indices."""
        lw, axis, dtype = self.lw, self.axis, self.dtype
        length = self.sizes[axis]
        shape = list(self.data.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
        if shape[axis] == DYNAMIC_INDEX:
            log2, padded = self._padding(length)
        else:  # a static length keeps the padded axis static
            bits = max(shape[axis] - 1, 0).bit_length()
            log2, padded = lw.constant_index(bits), lw.constant_index(1 << bits)
            shape[axis] = 1 << bits
        sizes = [padded if a == axis else s for a, s in enumerate(self.sizes)]
        element = self.data.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
        filled = fill(lw, constant(lw, 0, dtype), lw.empty(TensorType(element, shape), sizes))
        values = insert_slice(lw, self.data, filled, [0] * len(sizes), self.sizes)

        def position(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
            return lw.make(arith.IndexCastOp, lw.make(IndexOp, axis), i64)

        indices = parallel(lw, [], [], sizes, TensorType(i64, shape), position)
        self.length = lw.make(arith.IndexCastOp, length, i64)
        self.padded_sizes = sizes
        return self._levels(log2, values, indices)

    def _padding(self, length: SSAValue) -> tuple[SSAValue, SSAValue]:
        """``ceil(log2(max(length, 1)))`` (64 minus the leading zeros of ``max(length,
        1) - 1``) and the padded length, two to that power. The padded length is
        also written as at most ``2 * max(length, 1)``, which it never exceeds: that
        bounds it for integer range analyses, which cannot bound a shift by a computed
        amount (IREE's then misplaces the buffers of loop-carried tensors,
        ``docs/lowering/iree.md``)."""
        lw = self.lw
        at_least_one = lw.make(arith.MaxSIOp, length, lw.constant_index(1))
        below = lw.make(arith.SubiOp, at_least_one, lw.constant_index(1))
        zeros = lw.make(math.CountLeadingZerosOp, lw.make(arith.IndexCastOp, below, i64))
        bits = lw.make(arith.SubiOp, constant(lw, 64, INT64), zeros)
        log2 = lw.make(arith.IndexCastOp, bits, INDEX)
        power = lw.make(arith.ShLIOp, lw.constant_index(1), log2)
        twice = lw.make(arith.MuliOp, at_least_one, lw.constant_index(2))
        return log2, lw.make(arith.MinUIOp, power, twice)

    def _levels(self, log2: SSAValue, values: SSAValue, indices: SSAValue):
        """Merge levels ``s`` (blocks of ``k = 2 << s``), each of steps ``j = k >> (t + 1)``."""
        lw = self.lw

        def level(s: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            block_size = lw.make(arith.ShLIOp, lw.constant_index(2), s)
            steps = lw.make(arith.AddiOp, s, lw.constant_index(1))

            def step(t: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                shift = lw.make(arith.AddiOp, t, lw.constant_index(1))
                distance = lw.make(arith.ShRUIOp, block_size, shift)
                return self._step(block_size, distance, *carried)

            return for_loop(lw, steps, carried, step)

        return tuple(for_loop(lw, log2, [values, indices], level))

    def _step(self, block_size: SSAValue, distance: SSAValue, values, indices) -> list[SSAValue]:
        """One compare-exchange step between elements ``distance`` apart: it reads
        a copy of the carried tensors and writes them in place, so that the loop
        bufferizes without allocating per iteration."""
        lw, axis = self.lw, self.axis
        rank = len(self.sizes)
        identity = list(range(rank))
        inits = [values, indices]
        values, indices = (
            parallel(lw, [v], [identity], self.padded_sizes, v.type, lambda lw, xs: xs[0])
            for v in inits
        )

        def body(lw: Lowerer, args: Sequence[SSAValue]) -> list[SSAValue]:
            own, own_index = args[0], args[1]
            coords = loop_indices(lw, rank)
            i = coords[axis]
            coords[axis] = lw.make(arith.XOrIOp, i, distance)
            other, other_index = extract(lw, values, coords), extract(lw, indices, coords)
            zero = lw.constant_index(0)
            lower = lw.make(arith.CmpiOp, lw.make(arith.AndIOp, i, distance), zero, "eq")
            rising = lw.make(arith.CmpiOp, lw.make(arith.AndIOp, i, block_size), zero, "eq")
            wants_first = lw.make(arith.CmpiOp, lower, rising, "eq")
            first = self._before(own, own_index, other, other_index)
            keep = lw.make(arith.CmpiOp, first, wants_first, "eq")
            return [select(lw, keep, own, other), select(lw, keep, own_index, other_index)]

        maps = [identity] * 4
        return generic_results(lw, [values, indices], inits, maps, [PARALLEL] * rank, body)

    def _before(self, a: SSAValue, a_index: SSAValue, b: SSAValue, b_index: SSAValue):
        """Whether element ``a`` (at input index ``a_index``) sorts before ``b``: by
        class (numbers, NaN — first when descending — then padding), then by value,
        then by index."""
        lw, dtype = self.lw, self.dtype
        a_class, b_class = self._class(a, a_index), self._class(b, b_index)
        earlier = lw.make(arith.CmpiOp, a_class, b_class, "ult")
        same = lw.make(arith.CmpiOp, a_class, b_class, "eq")
        first, second = ("gt", "lt") if self.descending else ("lt", "gt")
        ahead = compare(lw, first, a, b, dtype)
        behind = compare(lw, second, a, b, dtype)
        tie = lw.make(arith.CmpiOp, a_index, b_index, "slt")
        not_behind = lw.make(arith.XOrIOp, behind, constant(lw, True, BOOL))
        by_index = lw.make(arith.AndIOp, not_behind, tie)
        by_value = lw.make(arith.OrIOp, ahead, by_index)
        return lw.make(arith.OrIOp, earlier, lw.make(arith.AndIOp, same, by_value))

    def _class(self, value: SSAValue, index: SSAValue) -> SSAValue:
        """0, 1 or 2 (``index``): numbers and NaN in their order, padding last."""
        lw = self.lw
        padding = lw.make(arith.CmpiOp, index, self.length, "sge")
        two = lw.constant_index(2)
        number = lw.constant_index(1 if self.descending else 0)
        if self.dtype.is_float:
            nan = lw.make(arith.CmpfOp, value, value, "uno")
            number = select(lw, nan, lw.constant_index(0 if self.descending else 1), number)
        return select(lw, padding, two, number)


def sorted_along(
    lw: Lowerer, op: ops.SortingOp, descending: bool, count: SSAValue | None = None
) -> tuple[SSAValue, SSAValue]:
    """The first ``count`` (default: all) sorted values of the operator's data along
    its axis and their ``i64`` input indices."""
    data = lw.lowered(op.data)[0]
    sizes = lw.dims(op.data)
    axis = op.sort_axis(len(sizes))
    network = Network(lw, data, sizes, axis, data_type(op.data.type), descending)
    values, indices = network.sort()
    out_sizes = [count if a == axis and count is not None else s for a, s in enumerate(sizes)]
    zeros, ones = [0] * len(sizes), [1] * len(sizes)
    return (
        extract_slice(lw, values, zeros, out_sizes, ones),
        extract_slice(lw, indices, zeros, out_sizes, ones),
    )


def _as_index_dtype(lw: Lowerer, indices: SSAValue, result) -> SSAValue:
    """``i64`` indices as the result's data type, cast to its lowered type."""
    target: DataType = result.data_type
    type = tensor_type(result)
    if target != INT64:
        shape = indices.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        sizes = [lw.dim(indices, a) for a in range(len(shape))]
        converted = TensorType(type.get_element_type(), shape)  # pyright: ignore
        indices = parallel(
            lw,
            [indices],
            [list(range(len(shape)))],
            sizes,
            converted,
            lambda lw, xs: convert(lw, xs[0], INT64, target),
        )
    return lw.cast(indices, type)


@lowers(ops.SortOp)
def lower_sort(lw: Lowerer, op: ops.SortOp) -> SSAValue:
    values, _ = sorted_along(lw, op, bool(op.attr("descending")))
    return lw.cast(values, tensor_type(lw.result_type(op)))


@lowers(ops.ArgsortOp)
def lower_argsort(lw: Lowerer, op: ops.ArgsortOp) -> SSAValue:
    _, indices = sorted_along(lw, op, bool(op.attr("descending")))
    return _as_index_dtype(lw, indices, lw.result_type(op))


@lowers(ops.TopkOp)
def lower_topk(lw: Lowerer, op: ops.TopkOp) -> SSAValue | list[SSAValue]:
    sinfo = lw.result_sinfo
    results = list(sinfo.types) if op.attr("ret_type") == "both" else [sinfo]  # pyright: ignore
    k: int = op.attr("k")
    sizes = lw.dims(op.data)
    axis = op.sort_axis(len(sizes))
    length = sizes[axis]
    count = length
    if k > 0:
        wanted = lw.constant_index(k)
        fixed = results[0].dims is not None and results[0].dims[axis] == IntImm(k)  # pyright: ignore
        if fixed and not isinstance(op.data.type.dims[axis], IntImm):  # pyright: ignore
            at_least = lw.make(arith.CmpiOp, length, wanted, "sge")
            message = f"{op.name}: k = {k} exceeds the length of axis {axis}"
            lw.check(at_least, op, message)
        count = wanted if fixed else lw.make(arith.MinSIOp, length, wanted)
    values, indices = sorted_along(lw, op, bool(op.attr("largest")), count)
    ret_type = op.attr("ret_type")
    if ret_type == "indices":
        return _as_index_dtype(lw, indices, results[0])
    values = lw.cast(values, tensor_type(results[0]))
    if ret_type == "values":
        return values
    return [values, _as_index_dtype(lw, indices, results[1])]
