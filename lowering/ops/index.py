"""Indexing → gathers (``linalg.generic`` reading with ``tensor.extract``) and
``tensor.extract_slice``.

* ``take``: a gather over the result; ``mode`` as the reference kernel: ``wrap``
  takes indices modulo the axis, ``clip`` clamps them, ``nan`` yields NaN outside
  the axis, ``fast`` checks them once, before the gather (TVM trusts them: out of
  bounds, native code reads outside the tensor), as the reference kernel does;
* ``strided_slice``: the bounds resolved as Python slicing (negative from the
  end, clamped; ``assume_inbound`` trusts them), computed with ``arith`` from the
  known values of the tuples or their run-time values; an ``extract_slice`` when
  every stride is a positive constant, else a gather at ``begin + i * stride``
  (a run-time stride is checked not to be zero);
* ``dynamic_strided_slice``: the same gather, with the bounds read from the
  tensors (the result sizes are computed at run time).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr
from xdsl.ir import Operation, SSAValue

from relax_dialect.ops import index as ops
from relax_dialect.ops.inference import normalize_axis
from relax_dialect.prim_expr import IntImm, PrimExpr, call
from relax_dialect.prim_expr_simplify import simplify
from relax_dialect.types import PrimType, TupleType
from relax_dialect.types import TensorType as RelaxTensor

from ..lowerer import Lowerer
from . import lowers
from .common import (
    check_every,
    check_index,
    data_type,
    extract,
    extract_slice,
    loop_indices,
    mixed,
    outside,
    outside_axis,
    parallel,
    select,
    symbol,
    to_index,
)
from .manipulate import result_of, wrap_negative


@lowers(ops.TakeOp)
def lower_take(lw: Lowerer, op: ops.TakeOp) -> SSAValue:
    result, type = result_of(lw, op)
    x, indices = lw.operand(op, 0), lw.operand(op, 1)
    data = op.x.type
    assert isinstance(data, RelaxTensor)
    axis = normalize_axis(op.name, op.attr("axis") or 0, data.rank)
    mode = op.attr("mode")
    sizes = lw.dims(op.x)
    extent = sizes[axis]
    index_type = op.indices.type
    scalar = isinstance(index_type, PrimType)
    count = 0 if scalar else result.rank - data.rank + 1
    dtype = data_type(index_type)
    zero, one = lw.constant_index(0), lw.constant_index(1)
    last = lw.make(arith.SubiOp, extent, one)

    if mode == "fast":
        if scalar:
            check_index(lw, op, to_index(lw, indices, dtype), extent, axis)
        else:
            rank = len(lw.dims(op.indices))
            check_every(
                lw,
                indices,
                rank,
                lambda lw, i: outside(lw, to_index(lw, i, dtype), extent),
                op,
                outside_axis(op, axis),
            )

    def element(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        at = loop_indices(lw, result.rank)
        index = to_index(lw, indices if scalar else args[0], dtype)
        missing = None
        if mode == "wrap":
            remainder = lw.make(arith.RemSIOp, index, extent)
            index = wrap_negative(lw, remainder, extent)
        elif mode == "clip":
            index = lw.make(arith.MinSIOp, lw.make(arith.MaxSIOp, index, zero), last)
        elif mode == "nan":
            missing = outside(lw, index, extent)
            index = select(lw, missing, zero, index)
        value = extract(lw, x, [*at[:axis], index, *at[axis + count :]])
        if missing is None:
            return value
        nan = lw.make(arith.ConstantOp, FloatAttr(float("nan"), value.type))  # pyright: ignore
        return select(lw, missing, nan, value)

    out_sizes = [*sizes[:axis], *([] if scalar else lw.dims(op.indices)), *sizes[axis + 1 :]]
    inputs, maps = ([], []) if scalar else ([indices], [list(range(axis, axis + count))])
    return parallel(lw, inputs, maps, out_sizes, type, element)


def _clamp(index: PrimExpr, extent: PrimExpr, backward: PrimExpr) -> PrimExpr:
    """A slice bound as Python resolves it: negative counts from the end, then
    clamped to ``[0, extent]`` (``[-1, extent - 1]`` when stepping backward)."""
    index = call("select", call("lt", index, 0), index + extent, index)
    low = call("select", backward, -1, 0)
    high = call("select", backward, extent - 1, extent)
    return call("min", call("max", index, low), high)


def _ceil_div(dividend: PrimExpr, divisor: PrimExpr) -> PrimExpr:
    return (dividend + divisor - 1) // divisor


def _slice(
    lw: Lowerer,
    op: Operation,
    bounds: Sequence[tuple[int, PrimExpr, PrimExpr, PrimExpr]],
    inbound: bool,
) -> SSAValue:
    """``x`` (operand 0) sliced along each ``(axis, begin, end, stride)`` of ``bounds``."""
    _, type = result_of(lw, op)
    x = lw.operand(op, 0)
    data = op.operands[0].type
    assert isinstance(data, RelaxTensor)
    sizes = lw.dims(op.operands[0])
    dims = data.dims if data.dims is not None else [symbol(lw, s) for s in sizes]
    starts: list[PrimExpr] = [IntImm(0)] * data.rank
    lengths, steps = list(dims), [IntImm(1)] * data.rank
    for axis, begin, end, stride in bounds:
        if not isinstance(stride, IntImm):
            nonzero = lw.index_of(call("ne", stride, 0))
            lw.check(nonzero, op, f"{op.name}: the stride of axis {axis} is zero")
        backward = simplify(call("lt", stride, 0))
        if not inbound:
            begin, end = _clamp(begin, dims[axis], backward), _clamp(end, dims[axis], backward)
        length = call(
            "select", backward, _ceil_div(begin - end, -stride), _ceil_div(end - begin, stride)
        )
        starts[axis] = simplify(begin)
        lengths[axis] = simplify(call("max", length, 0))
        steps[axis] = stride
    out = [mixed(lw, d) for d in lengths]
    if all(isinstance(s, IntImm) and s.value > 0 for s in steps):
        offsets = [mixed(lw, s) for s in starts]
        strides = [s.value for s in steps]  # pyright: ignore[reportAttributeAccessIssue]
        return lw.cast(extract_slice(lw, x, offsets, out, strides), type)
    first = [lw.index_of(s) for s in starts]
    step = [lw.index_of(s) for s in steps]

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        at = loop_indices(lw, data.rank)
        for axis, _, _, _ in bounds:
            offset = lw.make(arith.MuliOp, at[axis], step[axis])
            at[axis] = lw.make(arith.AddiOp, first[axis], offset)
        return extract(lw, x, at)

    out_sizes = [lw.index_of(d) for d in lengths]
    return parallel(lw, [], [], out_sizes, type, element)


def _values(lw: Lowerer, value: SSAValue) -> list[PrimExpr]:
    """The prim values of a tuple operand: known values, else their run-time values."""
    sinfo = value.type
    assert isinstance(sinfo, TupleType)
    exprs = []
    for field, lowered in zip(sinfo.types, lw.lowered(value), strict=True):
        known = field.known_value if isinstance(field, PrimType) else None
        exprs.append(symbol(lw, lw.as_index(lowered)) if known is None else known)
    return exprs


@lowers(ops.StridedSliceOp)
def lower_strided_slice(lw: Lowerer, op: ops.StridedSliceOp) -> SSAValue:
    rank = lw.result_type(op).rank
    axes = []
    for axis in _values(lw, op.axes):
        if not isinstance(axis, IntImm):
            lw.error(op, "the axes must be known constants")
        axes.append(normalize_axis(op.name, axis.value, rank))
    begin, end = _values(lw, op.begin), _values(lw, op.end)
    strides = [IntImm(1)] * len(axes) if op.strides is None else _values(lw, op.strides)
    bounds = list(zip(axes, begin, end, strides, strict=True))
    return _slice(lw, op, bounds, op.attr("assume_inbound"))


@lowers(ops.DynamicStridedSliceOp)
def lower_dynamic_strided_slice(lw: Lowerer, op: ops.DynamicStridedSliceOp) -> SSAValue:
    rank = lw.result_type(op).rank
    columns = []
    for position in (1, 2, 3):
        tensor = lw.operand(op, position)
        values = [extract(lw, tensor, [lw.constant_index(a)]) for a in range(rank)]
        columns.append([symbol(lw, lw.as_index(v)) for v in values])
    bounds = [(a, *column) for a, column in enumerate(zip(*columns, strict=True))]
    return _slice(lw, op, bounds, False)  # pyright: ignore[reportArgumentType]
