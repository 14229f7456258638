"""Search operators: ``where`` (element-wise ``select``), ``argmax``/``argmin`` (a
reduction ``linalg.generic`` carrying the best value and its index), ``bucketize``
(a counting reduction).

``argmax``/``argmin`` follow the reference kernel (TVM's scan): start from the
data type's lowest (argmax) or highest (argmin) finite value at index -1 and
move to each element, in order, unless the current one is better or equal
(``cmpf oge``/``ole``: false with a NaN). Hence the first extreme element after
the last NaN, and -1 when no element beats the start. ``bucketize`` counts the
boundaries ordered before each element, NaN ordered last as in NumPy's
``searchsorted`` (equal for sorted boundaries).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType, i64
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import SSAValue

from relax_dialect.dtype import BOOL, INT64, DataType
from relax_dialect.numerics.arithmetic import highest, lowest
from relax_dialect.ops import search as ops

from ..lowerer import Lowerer
from ..type_conversion import element_type
from . import lowers
from .common import (
    PARALLEL,
    REDUCTION,
    compare,
    constant,
    convert,
    data_type,
    elementwise,
    expand_unit_dims,
    fill,
    generic,
    generic_results,
    select,
)

# -- where ------------------------------------------------------------------------------


@lowers(ops.WhereOp)
def lower_where(lw: Lowerer, op: ops.WhereOp) -> SSAValue:
    result = lw.result_type(op)
    target = result.data_type
    sources = [data_type(op.x1.type), data_type(op.x2.type)]

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x1, x2 = (convert(lw, x, s, target) for x, s in zip(xs[1:], sources, strict=True))
        return select(lw, xs[0], x1, x2)

    return elementwise(lw, op, list(op.operands), body, result)


# -- argmax, argmin -----------------------------------------------------------------------


@lowers(ops.ArgmaxOp, ops.ArgminOp)
def lower_arg_extreme(lw: Lowerer, op: ops.IndexReductionOp) -> SSAValue:
    dtype = data_type(op.x.type)
    if dtype.is_bool:
        lw.error(op, "bool data has no lowest or highest value (as in TVM)")
    largest = isinstance(op, ops.ArgmaxOp)
    source = lw.lowered(op.x)[0]
    sizes = lw.dims(op.x)
    rank = len(sizes)
    axis: int | None = op.attr("axis")
    axes = list(range(rank)) if axis is None else [axis % rank]
    kept = [a for a in range(rank) if a not in axes]
    extent = lw.constant_index(1)
    for a in axes:
        extent = lw.make(arith.MuliOp, extent, sizes[a])
    nonempty = lw.make(arith.CmpiOp, extent, lw.constant_index(0), "sgt")
    lw.check(nonempty, op, f"{op.name}: the reduced elements are empty")
    shape = source.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    kept_sizes = [sizes[a] for a in kept]
    values = fill(
        lw,
        constant(lw, (lowest if largest else highest)(dtype.to_numpy()), dtype),
        lw.empty(TensorType(element_type(dtype), [shape[a] for a in kept]), kept_sizes),
    )
    indices = fill(
        lw, constant(lw, -1, INT64), lw.empty(TensorType(i64, [shape[a] for a in kept]), kept_sizes)
    )
    keep = "ge" if largest else "le"

    def body(lw: Lowerer, args: Sequence[SSAValue]) -> list[SSAValue]:
        x, best, best_index = args
        position = lw.constant_index(0)  # row-major position along the reduced axes
        for a in axes:
            scaled = lw.make(arith.MuliOp, position, sizes[a])
            position = lw.make(arith.AddiOp, scaled, lw.make(IndexOp, a))
        index = lw.make(arith.IndexCastOp, position, i64)
        stay = compare(lw, keep, best, x, dtype)
        return [select(lw, stay, best, x), select(lw, stay, best_index, index)]

    iterators = [REDUCTION if a in axes else PARALLEL for a in range(rank)]
    maps = [list(range(rank)), kept, kept]
    _, found = generic_results(lw, [source], [values, indices], maps, iterators, body)
    if not op.attr("keepdims") or not axes:
        return found
    out_sizes = [lw.constant_index(1) if a in axes else sizes[a] for a in range(rank)]
    return expand_unit_dims(lw, found, axes, out_sizes)


# -- bucketize -----------------------------------------------------------------------------


def ordered_before(
    lw: Lowerer, a: SSAValue, b: SSAValue, dtype: DataType, or_equal: bool
) -> SSAValue:
    """``a < b`` (``a <= b`` when ``or_equal``) with NaN after every number and equal
    to NaN, NumPy's sort order."""
    if not dtype.is_float:
        return compare(lw, "le" if or_equal else "lt", a, b, dtype)
    if or_equal:  # not (b < a): b is a number and (a is NaN or b < a) is false
        after = lw.make(arith.CmpfOp, b, a, "ult")
        b_number = lw.make(arith.CmpfOp, b, b, "ord")
        strictly = lw.make(arith.AndIOp, after, b_number)
        return lw.make(arith.XOrIOp, strictly, constant(lw, True, BOOL))
    # a < b, or b is NaN and a a number: "ult" is true for any NaN operand
    below = lw.make(arith.CmpfOp, a, b, "ult")
    a_number = lw.make(arith.CmpfOp, a, a, "ord")
    return lw.make(arith.AndIOp, below, a_number)


@lowers(ops.BucketizeOp)
def lower_bucketize(lw: Lowerer, op: ops.BucketizeOp) -> SSAValue:
    result = lw.result_type(op)
    dtype = data_type(op.input_tensor.type)
    values = lw.lowered(op.input_tensor)[0]
    boundaries = lw.lowered(op.boundaries)[0]
    sizes = lw.dims(op.input_tensor)
    rank = len(sizes)
    out_type = element_type(result.data_type)
    shape = values.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    zero = constant(lw, 0, result.data_type)
    one = constant(lw, 1, result.data_type)
    init = fill(lw, zero, lw.empty(TensorType(out_type, shape), sizes))
    right = bool(op.attr("right"))

    def body(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        value, boundary, count = args
        below = ordered_before(lw, boundary, value, dtype, or_equal=right)
        return lw.make(arith.AddiOp, count, select(lw, below, one, zero))

    identity = list(range(rank))
    maps = [identity, [rank], identity]
    iterators = [PARALLEL] * rank + [REDUCTION]
    return generic(lw, [values, boundaries], init, maps, iterators, body)
