"""Operations that create tensors or move their elements: constants, ``iota``,
broadcasts, reshapes, transposes, concatenations, slices (static and dynamic),
``dynamic_update_slice``, ``pad``, ``reverse``. Shapes computed at run time
(``dynamic_broadcast_in_dim``, ``dynamic_reshape``...) must be known values
(``known.py``): the Relax types keep their symbolic dimensions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr
from xdsl.dialects.builtin import TensorType as MLIRTensorType
from xdsl.ir import Operation, SSAValue

from ...builder import Expr, Shape, call
from ...dtype import DataType
from ...prim_expr import IntImm, PrimExpr, as_expr
from ...prim_expr_simplify import prove_equal, simplify
from ...types import TensorType
from . import ops
from .convert_elementwise import element_dtype
from .converter import Converter, converts, dense_array, refuse, scalar_constant
from .syntax import int_list


def ints(op: Operation, name: str) -> tuple[int, ...]:
    """A list-of-integers attribute of ``op``."""
    values = int_list(op.properties.get(name, op.attributes.get(name)))
    if values is None:
        refuse(op, f"needs '{name}' as a list of integers")
    return values


def integer(op: Operation, name: str) -> int:
    value = op.properties.get(name, op.attributes.get(name))
    if not isinstance(value, IntegerAttr):
        refuse(op, f"needs '{name}' as an integer")
    return value.value.data


def same(a: PrimExpr | int, b: PrimExpr | int) -> bool:
    return prove_equal(as_expr(a), as_expr(b))


def result_dims(op: Operation, index: int = 0) -> list[PrimExpr | None]:
    """The static dimensions of a result's type (None for ``?``)."""
    result_type = op.results[index].type
    if not isinstance(result_type, MLIRTensorType):
        refuse(op, f"results of type {result_type} are not supported")
    return [IntImm(d) if d >= 0 else None for d in result_type.get_shape()]


def known_values(cv: Converter, op: Operation, operand: int, what: str) -> tuple[PrimExpr, ...]:
    """The values of an integer operand as symbolic expressions (a shape)."""
    known = cv.symbolic(op.operands[operand])
    if known is None:
        refuse(op, f"the {what} is computed from values known only when the program runs")
    return known.values


def broadcast(
    cv: Converter, op: Operation, x: SSAValue, mapping: Sequence[int], target: Sequence[PrimExpr]
) -> SSAValue:
    """``x`` with its dimension ``i`` at ``mapping[i]`` of ``target``, broadcast."""
    source = list(cv.relax_dims(x, op))
    if len(mapping) != len(source) or len(set(mapping)) != len(mapping):
        refuse(op, f"maps {len(source)} dimensions with {list(mapping)}")
    if any(not 0 <= d < len(target) for d in mapping):
        refuse(op, f"maps to dimensions {list(mapping)} of a rank-{len(target)} result")
    order = sorted(range(len(mapping)), key=lambda i: mapping[i])
    if order != list(range(len(mapping))):
        x = cv.emit(call("relax.permute_dims", x, axes=order))
        source = [source[i] for i in order]
    expanded: list[PrimExpr] = [IntImm(1)] * len(target)
    for size, dim in zip(source, sorted(mapping), strict=True):
        expanded[dim] = size
    if len(expanded) != len(source):
        x = cv.emit(call("relax.reshape", x, Shape(tuple(expanded))))
    if not all(same(e, t) for e, t in zip(expanded, target, strict=True)):
        x = cv.emit(call("relax.broadcast_to", x, Shape(tuple(target))))
    return x


@converts(ops.BroadcastInDimOp)
def broadcast_in_dim(cv: Converter, op: Operation) -> Sequence[Expr]:
    x = cv.value(op.operands[0])
    mapping = ints(op, "broadcast_dimensions")
    source = cv.relax_dims(x, op)
    target = result_dims(op)
    for i, dim in enumerate(mapping):
        if 0 <= dim < len(target) and target[dim] is None and i < len(source):
            target[dim] = source[i]
    if any(t is None for t in target):
        refuse(op, "a dynamic result dimension is not one of the operand's")
    return [broadcast(cv, op, x, mapping, target)]  # type: ignore[arg-type]


@converts(ops.DynamicBroadcastInDimOp)
def dynamic_broadcast_in_dim(cv: Converter, op: Operation) -> Sequence[Expr]:
    target = known_values(cv, op, 1, "output shape")
    return [broadcast(cv, op, cv.value(op.operands[0]), ints(op, "broadcast_dimensions"), target)]


def reshape_to(cv: Converter, op: Operation, x: SSAValue, dims: Sequence[PrimExpr]) -> SSAValue:
    if all(same(a, b) for a, b in zip(cv.relax_dims(x, op), dims, strict=False)) and len(
        cv.relax_dims(x, op)
    ) == len(dims):
        return x
    return cv.emit(call("relax.reshape", x, Shape(tuple(dims))))


@converts(ops.ReshapeOp)
def reshape(cv: Converter, op: Operation) -> Sequence[Expr]:
    x = cv.value(op.operands[0])
    dims = result_dims(op)
    unknown = [i for i, d in enumerate(dims) if d is None]
    if len(unknown) > 1:
        refuse(op, "reshapes to several dynamic dimensions without a shape operand")
    if unknown:
        total = IntImm(1)
        for d in cv.relax_dims(x, op):
            total = total * d
        rest = IntImm(1)
        for d in dims:
            rest = rest * d if d is not None else rest
        dims[unknown[0]] = simplify(total // rest)
    return [reshape_to(cv, op, x, dims)]  # type: ignore[arg-type]


@converts(ops.DynamicReshapeOp)
def dynamic_reshape(cv: Converter, op: Operation) -> Sequence[Expr]:
    return [reshape_to(cv, op, cv.value(op.operands[0]), known_values(cv, op, 1, "output shape"))]


@converts(ops.TransposeOp)
def transpose(cv: Converter, op: Operation) -> Sequence[Expr]:
    return [
        call("relax.permute_dims", cv.value(op.operands[0]), axes=list(ints(op, "permutation")))
    ]


@converts(ops.ReverseOp)
def reverse(cv: Converter, op: Operation) -> Sequence[Expr]:
    x = cv.value(op.operands[0])
    for axis in ints(op, "dimensions"):
        x = cv.emit(call("relax.flip", x, axis=axis))
    return [x]


@converts(ops.ConcatenateOp)
def concatenate(cv: Converter, op: Operation) -> Sequence[Expr]:
    values = [cv.value(o) for o in op.operands]
    return [call("relax.concat", values, axis=integer(op, "dimension"))]


@converts(ops.ConstantOp)
def constant(cv: Converter, op: Operation) -> Sequence[Expr]:
    value = op.properties.get("value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        refuse(op, "needs a dense<...> value")
    return [dense_array(value, element_dtype(op, result=True))]


def iota(cv: Converter, dims: Sequence[PrimExpr], axis: int, dtype: str) -> SSAValue:
    """The indices along ``axis`` of a tensor of shape ``dims``."""
    line = cv.emit(call("relax.arange", 0, dims[axis], 1, dtype=DataType.parse(dtype)))
    expanded = [IntImm(1)] * len(dims)
    expanded[axis] = dims[axis]
    if len(dims) > 1:
        line = cv.emit(call("relax.reshape", line, Shape(tuple(expanded))))
    if not all(same(e, d) for e, d in zip(expanded, dims, strict=True)):
        line = cv.emit(call("relax.broadcast_to", line, Shape(tuple(dims))))
    return line


@converts(ops.IotaOp, ops.DynamicIotaOp)
def iota_op(cv: Converter, op: Operation) -> Sequence[Expr]:
    if isinstance(op, ops.DynamicIotaOp):
        dims: Sequence[PrimExpr | None] = known_values(cv, op, 0, "output shape")
    else:
        dims = result_dims(op)
    axis = integer(op, "iota_dimension")
    if any(d is None for d in dims) or not 0 <= axis < len(dims):
        refuse(op, f"needs a static shape and a dimension in range (dimension {axis})")
    return [iota(cv, dims, axis, element_dtype(op, result=True))]  # type: ignore[arg-type]


@converts(ops.SliceOp)
def slice_(cv: Converter, op: Operation) -> Sequence[Expr]:
    start, limit, strides = (ints(op, name) for name in ops.SLICE_PROPERTIES)
    return [strided_slice(cv, op, cv.value(op.operands[0]), start, limit, strides)]


def strided_slice(
    cv: Converter,
    op: Operation,
    x: SSAValue,
    start: Sequence[PrimExpr | int],
    limit: Sequence[PrimExpr | int],
    strides: Sequence[PrimExpr | int],
) -> SSAValue:
    """``x[start:limit:strides]``, the axes that are whole left out."""
    dims = cv.relax_dims(x, op)
    axes = [
        i
        for i, (s, e, st) in enumerate(zip(start, limit, strides, strict=True))
        if not (same(s, 0) and same(e, dims[i]) and same(st, 1))
    ]
    if not axes:
        return x
    pick = lambda values: [as_expr(values[i]) for i in axes]  # noqa: E731
    return cv.emit(call("relax.strided_slice", x, axes, pick(start), pick(limit), pick(strides)))


@converts(ops.RealDynamicSliceOp)
def real_dynamic_slice(cv: Converter, op: Operation) -> Sequence[Expr]:
    start, limit, strides = (known_values(cv, op, i, "slice") for i in (1, 2, 3))
    return [strided_slice(cv, op, cv.value(op.operands[0]), start, limit, strides)]


def clamped_starts(
    cv: Converter,
    op: Operation,
    dims: Sequence[PrimExpr],
    sizes: Sequence[PrimExpr],
    starts: Sequence[SSAValue],
) -> list[PrimExpr | SSAValue]:
    """Each start index clamped as StableHLO does, to ``[0, dim - size]``: a
    known integer where it is known, else a Relax scalar of type ``i64``."""
    clamped: list[PrimExpr | SSAValue] = []
    for dim, size, start in zip(dims, sizes, starts, strict=True):
        known = cv.known.get(start)
        if same(dim, size):
            clamped.append(IntImm(0))
            continue
        room = simplify(as_expr(dim) - size)
        if not isinstance(room, IntImm):
            refuse(op, f"slices {size} of a dimension {dim} at a position known only at run time")
        if known is not None and known.ints() is not None:
            clamped.append(IntImm(min(max(known.ints()[0], 0), room.value)))  # type: ignore[index]
            continue
        index = cv.emit(call("relax.astype", cv.value(start), dtype=DataType.parse("i64")))
        low, high = scalar_constant(0, "i64"), scalar_constant(room.value, "i64")
        clamped.append(cv.emit(call("relax.maximum", call("relax.minimum", index, high), low)))
    return clamped


@converts(ops.DynamicSliceOp)
def dynamic_slice(cv: Converter, op: Operation) -> Sequence[Expr]:
    x = cv.value(op.operands[0])
    dims = cv.relax_dims(x, op)
    sizes = [IntImm(s) for s in ints(op, "slice_sizes")]
    if len(sizes) != len(dims) or len(op.operands) != len(dims) + 1:
        refuse(op, "needs a start index and a size per dimension")
    starts = clamped_starts(cv, op, dims, sizes, list(op.operands[1:]))
    if all(isinstance(s, PrimExpr) for s in starts):
        limits = [simplify(s + n) for s, n in zip(starts, sizes, strict=True)]  # type: ignore[operator]
        return [strided_slice(cv, op, x, starts, limits, [1] * len(dims))]  # type: ignore[arg-type]
    begin = cv.emit(call("relax.concat", [as_vector(cv, s) for s in starts], axis=0))
    end = cv.emit(call("relax.add", begin, np.array([s.value for s in sizes], "int64")))
    ones = np.ones(len(dims), "int64")
    sliced = cv.emit(call("relax.dynamic_strided_slice", x, begin, end, ones))
    return [cv.bb.match_cast(sliced, TensorType(sizes, element_dtype(op)))]


def as_vector(cv: Converter, index: PrimExpr | SSAValue) -> SSAValue:
    """A start index as a one-element ``i64`` tensor."""
    if isinstance(index, PrimExpr):
        return cv.emit(np.array([index.value], "int64"))  # type: ignore[attr-defined]
    return cv.emit(call("relax.reshape", index, Shape((1,))))


@converts(ops.DynamicUpdateSliceOp)
def dynamic_update_slice(cv: Converter, op: Operation) -> Sequence[Expr]:
    x, update = cv.value(op.operands[0]), cv.value(op.operands[1])
    dims, sizes = cv.relax_dims(x, op), cv.relax_dims(update, op)
    if len(sizes) != len(dims) or len(op.operands) != len(dims) + 2:
        refuse(op, "needs an update of the operand's rank and a start index per dimension")
    if all(same(d, s) for d, s in zip(dims, sizes, strict=True)):
        return [update]
    starts = clamped_starts(cv, op, dims, sizes, list(op.operands[2:]))
    columns = []
    for axis, start in enumerate(starts):
        positions = iota(cv, sizes, axis, "i64")
        offset = np.array(start.value, "int64") if isinstance(start, PrimExpr) else start  # type: ignore[attr-defined]
        shifted = cv.emit(call("relax.add", positions, offset))
        columns.append(cv.emit(call("relax.expand_dims", shifted, axis=[len(sizes)])))
    indices = cv.emit(call("relax.concat", columns, axis=len(sizes)))
    return [call("relax.scatter_nd", x, indices, update, reduction="update")]


@converts(ops.PadOp)
def pad(cv: Converter, op: Operation) -> Sequence[Expr]:
    """``nn.pad`` with a constant value; with a value known only at run time,
    ``pad(x, 0) + (1 - pad(ones, 0)) * value``."""
    low, high, interior = (
        ints(op, n) for n in ("edge_padding_low", "edge_padding_high", "interior_padding")
    )
    if any(interior):
        refuse(op, "interior padding is not supported")
    if any(v < 0 for v in (*low, *high)):
        refuse(op, "negative padding is not supported")
    widths = [w for pair in zip(low, high, strict=True) for w in pair]
    x = cv.value(op.operands[0])
    value = constant_value(cv, op.operands[1])
    if value is not None:
        return [call("relax.nn.pad", x, pad_width=widths, pad_value=value)]
    padded = call("relax.nn.pad", x, pad_width=widths, pad_value=0.0)
    inside = call("relax.nn.pad", call("relax.ones_like", x), pad_width=widths, pad_value=0.0)
    outside = call("relax.subtract", scalar_constant(1, element_dtype(op)), inside)
    return [call("relax.add", padded, call("relax.multiply", outside, cv.value(op.operands[1])))]


def constant_value(cv: Converter, value: SSAValue) -> float | None:
    """The scalar a value holds when it is a constant (or a known integer)."""
    known = cv.known.get(value)
    if known is not None and known.ints() is not None and len(set(known.ints())) == 1:  # type: ignore[arg-type]
        return float(known.ints()[0])  # type: ignore[index]
    source = value.owner
    attribute = source.properties.get("value") if isinstance(source, ops.ConstantOp) else None
    if isinstance(attribute, DenseIntOrFPElementsAttr) and len(set(attribute.get_values())) == 1:
        return float(attribute.get_values()[0])
    return None


@converts(ops.OptimizationBarrierOp)
def optimization_barrier(cv: Converter, op: Operation) -> Sequence[Expr]:
    return [cv.value(o) for o in op.operands]


@converts(ops.GetDimensionSizeOp)
def get_dimension_size(cv: Converter, op: Operation) -> Sequence[Expr]:
    refuse(op, "reads a dimension whose size is not known")
