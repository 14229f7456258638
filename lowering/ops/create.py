"""Tensor creation → ``linalg.fill`` of a ``tensor.empty``, or a ``linalg.generic``
computing each element from its position (``linalg.index``).

* ``zeros``/``ones``/``full`` and their ``*_like`` forms: a fill (``full``'s 0-d
  value read with ``tensor.extract`` and converted to the result's data type);
* ``eye``/``eye_like``: 1 where ``column - row == k``; ``tril``/``triu``: ``x``
  where ``column - row <= k`` (``>= k``), else 0, over the last two axes;
* ``arange``: ``start + step * i`` as the reference kernel computes it (NumPy's
  ``arange`` for constants: in the result's data type from the first two
  elements; else in the widest float of ``start`` and ``step``, or ``i64``); its
  length is the inferred one, or computed at run time for a float range with a
  symbolic extent (in single precision, as TVM does).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue

from relax_dialect.dtype import FLOAT32, INT64, DataType
from relax_dialect.ops import create as ops
from relax_dialect.prim_expr import FloatImm, IntImm

from ..lowerer import Lowerer
from . import lowers
from .common import (
    binary,
    constant,
    convert,
    data_type,
    extract,
    fill,
    loop_indices,
    parallel,
    to_index,
)
from .manipulate import result_of, result_sizes

FLOAT64 = DataType("float", 64)


def _filled(lw: Lowerer, op: Operation, value: SSAValue, sizes: list[SSAValue]) -> SSAValue:
    _, type = result_of(lw, op)
    return fill(lw, value, lw.empty(type, sizes))


@lowers(ops.ZerosOp, ops.OnesOp)
def lower_shape_fill(lw: Lowerer, op: ops.ShapeFillOp) -> SSAValue:
    result = lw.result_type(op)
    sizes = result_sizes(lw, result, lambda: list(lw.lowered(op.shape)))
    return _filled(lw, op, constant(lw, op.FILL, result.data_type), sizes)


@lowers(ops.ZerosLikeOp, ops.OnesLikeOp)
def lower_like_fill(lw: Lowerer, op: ops.LikeFillOp) -> SSAValue:
    result = lw.result_type(op)
    return _filled(lw, op, constant(lw, op.FILL, result.data_type), lw.dims(op.x))


def _fill_value(lw: Lowerer, op: ops.FullOp | ops.FullLikeOp) -> SSAValue:
    """The 0-d fill value as a scalar of the result's data type."""
    value = extract(lw, lw.operand(op, 1), [])
    return convert(lw, value, data_type(op.fill_value.type), lw.result_type(op).data_type)


@lowers(ops.FullOp)
def lower_full(lw: Lowerer, op: ops.FullOp) -> SSAValue:
    result = lw.result_type(op)
    sizes = result_sizes(lw, result, lambda: list(lw.lowered(op.shape)))
    return _filled(lw, op, _fill_value(lw, op), sizes)


@lowers(ops.FullLikeOp)
def lower_full_like(lw: Lowerer, op: ops.FullLikeOp) -> SSAValue:
    return _filled(lw, op, _fill_value(lw, op), lw.dims(op.x))


# -- diagonals --------------------------------------------------------------------------


def _diagonal_offset(lw: Lowerer, at: Sequence[SSAValue]) -> SSAValue:
    """``column - row`` of the last two loop indices."""
    return lw.make(arith.SubiOp, at[-1], at[-2])


def _eye(lw: Lowerer, op: ops.EyeOp | ops.EyeLikeOp, sizes: list[SSAValue]) -> SSAValue:
    result, type = result_of(lw, op)
    k = to_index(lw, lw.operand(op, len(op.operands) - 1), data_type(op.k.type))
    dtype = result.data_type
    one, zero = constant(lw, 1, dtype), constant(lw, 0, dtype)

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        offset = _diagonal_offset(lw, loop_indices(lw, 2))
        on = lw.make(arith.CmpiOp, offset, k, "eq")
        return lw.make(arith.SelectOp, on, one, zero)

    return parallel(lw, [], [], sizes, type, element)


@lowers(ops.EyeOp)
def lower_eye(lw: Lowerer, op: ops.EyeOp) -> SSAValue:
    result = lw.result_type(op)
    return _eye(lw, op, result_sizes(lw, result, list))


@lowers(ops.EyeLikeOp)
def lower_eye_like(lw: Lowerer, op: ops.EyeLikeOp) -> SSAValue:
    return _eye(lw, op, lw.dims(op.x))


@lowers(ops.TrilOp, ops.TriuOp)
def lower_triangular(lw: Lowerer, op: ops.TriangularOp) -> SSAValue:
    result, type = result_of(lw, op)
    k = to_index(lw, lw.operand(op, 1), data_type(op.k.type))
    zero = constant(lw, 0, result.data_type)
    keep = "sle" if isinstance(op, ops.TrilOp) else "sge"
    rank = result.rank

    def element(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        offset = _diagonal_offset(lw, loop_indices(lw, rank))
        kept = lw.make(arith.CmpiOp, offset, k, keep)
        return lw.make(arith.SelectOp, kept, args[0], zero)

    x = lw.operand(op, 0)
    return parallel(lw, [x], [list(range(rank))], lw.dims(op.x), type, element)


# -- ranges --------------------------------------------------------------------------------


def _float_length(lw: Lowerer, start: SSAValue, end: SSAValue, step: SSAValue, dtypes) -> SSAValue:
    """``ceil(f32(end - start) / f32(step))`` (the span computed in ``f64``)."""
    wide = [convert(lw, v, d, FLOAT64) for v, d in zip((start, end), dtypes, strict=False)]
    span = convert(lw, lw.make(arith.SubfOp, wide[1], wide[0]), FLOAT64, FLOAT32)
    ratio = lw.make(arith.DivfOp, span, convert(lw, step, dtypes[2], FLOAT32))
    length = convert(lw, lw.make(math.CeilOp, ratio), FLOAT32, INT64)
    return lw.as_index(length)


def _folded_range(dtype: DataType, start: float, step: float) -> tuple[DataType, float, float]:
    """NumPy's ``arange`` of constants: the first two elements are computed in
    ``float64`` and rounded to ``dtype``; element ``i`` is ``first + i * (second -
    first)`` computed in ``dtype`` (``f32`` for ``f16``). Returns that type, first
    and the difference."""
    compute = FLOAT32 if dtype.is_float and dtype.bits < 32 else dtype
    first, second = (np.asarray(v).astype(dtype.to_numpy()) for v in (start, start + step))
    as_compute = compute.to_numpy()
    with np.errstate(all="ignore"):
        delta = second.astype(as_compute) - first.astype(as_compute)
    return compute, first.item(), delta.item()


@lowers(ops.ArangeOp)
def lower_arange(lw: Lowerer, op: ops.ArangeOp) -> SSAValue:
    """As the reference kernel: a range of constants as NumPy's ``arange``, else
    ``start + step * i`` computed in the widest float of ``start`` and ``step`` (or
    ``i64``), then converted."""
    result, type = result_of(lw, op)
    start, end, step = (lw.operand(op, i) for i in range(3))
    dtypes = [data_type(v.type) for v in op.operands]
    known = [v.type.known_value for v in op.operands]  # pyright: ignore[reportAttributeAccessIssue]
    if all(isinstance(v, IntImm | FloatImm) for v in known):
        compute, first_value, delta = _folded_range(
            result.data_type, known[0].value, known[2].value
        )
        first, increment = constant(lw, first_value, compute), constant(lw, delta, compute)
    else:
        floats = [d for d in (dtypes[0], dtypes[2]) if d.is_float]
        compute = max(floats, key=lambda d: d.bits) if floats else INT64
        first = convert(lw, start, dtypes[0], compute)
        increment = convert(lw, step, dtypes[2], compute)

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        (i,) = loop_indices(lw, 1)
        count = convert(lw, lw.make(arith.IndexCastOp, i, IntegerType(64)), INT64, compute)
        offset = binary(lw, compute, arith.MulfOp, arith.MuliOp, increment, count)
        value = binary(lw, compute, arith.AddfOp, arith.AddiOp, first, offset)
        return convert(lw, value, compute, result.data_type)

    sizes = result_sizes(lw, result, lambda: [_float_length(lw, start, end, step, dtypes)])
    return parallel(lw, [], [], sizes, type, element)
