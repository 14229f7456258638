"""``matmul``, ``einsum`` and ``outer`` → ``linalg.matmul`` / ``linalg.generic``.

``relax.matmul`` of operands of the result's data type whose right operand is a
matrix is ``linalg.matmul`` on a zero-filled output; a left operand with batch
dimensions (``[b..., s, d] x [d, e]``, a layer applied to a batch of sequences) is
collapsed to ``[b * ... * s, d]`` first and the product expanded back, so that the
tiling schedule (``tiling.py``) sees one large matrix product. Every other case
(batched or broadcast right operands, 1-D operands, ``out_dtype`` conversions) is
one contraction ``linalg.generic`` with the loops ``batch..., i, j, k``
(``i``/``j`` absent for a vector operand). ``relax.einsum`` is one ``linalg.generic`` whose loops
are the output labels (parallel) then the summed labels (reduction); a label
(or a dimension an ellipsis covers) of static extent 1 broadcasts, other
extents of a label must agree (checked at run time when not proven). ``bool``
products and sums are ``and`` and ``or``, as NumPy computes them. ``f16`` products
accumulate in ``f32`` and round to ``f16`` once, as NumPy's ``matmul`` of float16 does
(``accumulation_type``; the matrix product is then a generic rather than
``linalg.matmul``, whose xDSL body has no conversions).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import MatmulOp as LinalgMatmulOp
from xdsl.ir import Attribute, Block, SSAValue

from relax_dialect.dtype import DataType
from relax_dialect.ops.binary import tir_common_dtype
from relax_dialect.ops.linear_algebra import ELLIPSIS, EinsumOp, MatmulOp, OuterOp
from relax_dialect.prim_expr import IntImm, PrimExpr
from relax_dialect.prim_expr_simplify import prove_equal
from relax_dialect.types import TensorType as RelaxTensor
from relax_dialect.types import TupleType

from ..lowerer import Lowerer
from ..type_conversion import element_type, tensor_type
from . import lowers
from .common import (
    PARALLEL,
    REDUCTION,
    accumulation_type,
    broadcast,
    collapse,
    constant,
    convert,
    data_type,
    expand,
    fill,
    generic,
    parallel,
    pick,
    tensor_shape,
)


def _multiply_add(lw: Lowerer, dtype: DataType, acc: SSAValue, *factors: SSAValue) -> SSAValue:
    """``acc + product(factors)`` in ``dtype`` (``or``/``and`` for bool)."""
    mul = arith.AndIOp if dtype.is_bool else pick(dtype, arith.MulfOp, arith.MuliOp)
    add = arith.OrIOp if dtype.is_bool else pick(dtype, arith.AddfOp, arith.AddiOp)
    product = factors[0]
    for factor in factors[1:]:
        product = lw.emit_value(mul(product, factor))
    return lw.emit_value(add(acc, product))


def _zeros(lw: Lowerer, dtype: DataType, type: TensorType, sizes: Sequence[SSAValue]) -> SSAValue:
    """A zero-filled tensor of builtin ``type`` (elements of ``dtype``) and ``sizes``."""
    return fill(lw, constant(lw, 0, dtype), lw.empty(type, sizes))


def _check_extent(
    lw: Lowerer,
    op: MatmulOp | EinsumOp,
    sizes: Sequence[tuple[PrimExpr | None, SSAValue]],
    what: str,
) -> SSAValue:
    """The common extent of several sizes (each with its symbolic dim, if known);
    those not proven equal to the first are checked at run time."""
    first_expr, first = sizes[0]
    for expr, size in sizes[1:]:
        if expr is None or first_expr is None or not prove_equal(expr, first_expr):
            lw.check_equal(size, first, op, f"{op.name}: {what} differ")
    return first


@lowers(MatmulOp)
def lower_matmul(lw: Lowerer, op: MatmulOp) -> SSAValue:
    result = lw.result_type(op)
    dtype = result.data_type
    (lhs_exprs, lhs_sizes), (rhs_exprs, rhs_sizes) = (tensor_shape(lw, v) for v in op.operands)
    lhs_vector, rhs_vector = len(lhs_exprs) == 1, len(rhs_exprs) == 1
    lhs_batch = 0 if lhs_vector else len(lhs_exprs) - 2
    rhs_batch = 0 if rhs_vector else len(rhs_exprs) - 2
    batch = result.rank - (not lhs_vector) - (not rhs_vector)
    batch_dims = None if result.dims is None else result.dims[:batch]
    shapes = [
        (lhs_exprs[:lhs_batch], lhs_sizes[:lhs_batch]),
        (rhs_exprs[:rhs_batch], rhs_sizes[:rhs_batch]),
    ]
    sizes, (lhs_map, rhs_map) = broadcast(lw, op, shapes, batch_dims, batch)
    k_lhs, k_rhs = -1, 0 if rhs_vector else -2
    _check_extent(
        lw,
        op,
        [(lhs_exprs[k_lhs], lhs_sizes[k_lhs]), (rhs_exprs[k_rhs], rhs_sizes[k_rhs])],
        "the inner dimensions",
    )
    rows = cols = None
    loop = batch
    if not lhs_vector:
        rows, loop = loop, loop + 1
        sizes.append(lhs_sizes[-2])
    if not rhs_vector:
        cols, loop = loop, loop + 1
        sizes.append(rhs_sizes[-1])
    lhs_map += [*([] if rows is None else [rows]), loop]
    rhs_map += [loop, *([] if cols is None else [cols])]
    out_map = [*range(batch), *(axis for axis in (rows, cols) if axis is not None)]
    lhs, rhs = (lw.lowered(v)[0] for v in op.operands)
    lhs_dtype, rhs_dtype = data_type(op.x1.type), data_type(op.x2.type)
    if len(lhs_exprs) >= 2 and len(rhs_exprs) == 2 and lhs_dtype == rhs_dtype == dtype:
        return _matrix_product(lw, result, lhs, rhs, sizes)
    acc = accumulation_type(dtype)
    out_type = tensor_type(result)
    init = _zeros(lw, acc, _retyped(out_type, acc), sizes)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x, y = convert(lw, xs[0], lhs_dtype, dtype), convert(lw, xs[1], rhs_dtype, dtype)
        x, y = convert(lw, x, dtype, acc), convert(lw, y, dtype, acc)
        return _multiply_add(lw, acc, xs[2], x, y)

    iterators = [PARALLEL] * loop + [REDUCTION]
    product = generic(lw, [lhs, rhs], init, [lhs_map, rhs_map, out_map], iterators, body)
    return _narrowed(lw, product, acc, dtype, out_type, sizes)


def _retyped(type: TensorType, dtype: DataType) -> TensorType:
    """Builtin tensor ``type`` with elements of ``dtype``."""
    return TensorType(element_type(dtype), type.get_shape())


def _narrowed(
    lw: Lowerer,
    value: SSAValue,
    acc: DataType,
    dtype: DataType,
    type: TensorType,
    sizes: Sequence[SSAValue],
) -> SSAValue:
    """The sums ``value`` accumulated in ``acc`` rounded to ``dtype`` (``type``), once."""
    if acc == dtype:
        return value
    rank = len(sizes)
    return parallel(
        lw, [value], [list(range(rank))], sizes, type, lambda lw, xs: convert(lw, xs[0], acc, dtype)
    )


@functools.cache
def _matmul_template(lhs: Attribute, rhs: Attribute, out: Attribute) -> LinalgMatmulOp:
    """A ``linalg.matmul`` on values of these types, never inserted: its body and properties
    are what every matmul of these element types copies."""
    return LinalgMatmulOp(list(Block(arg_types=[lhs, rhs]).args), list(Block(arg_types=[out]).args))


def _linalg_matmul(lhs: SSAValue, rhs: SSAValue, init: SSAValue) -> LinalgMatmulOp:
    """``linalg.matmul`` of ``lhs`` by ``rhs`` into ``init``, its body copied from a template:
    xDSL builds each matmul's body through its implicit builder, half the time of lowering a
    chain of layers."""
    types = [value.type for value in (lhs, rhs, init)]
    elements = [t.element_type if isinstance(t, TensorType) else t for t in types]
    template = _matmul_template(*elements)
    return LinalgMatmulOp.create(
        operands=[lhs, rhs, init],
        result_types=[init.type],
        properties=dict(template.properties),
        attributes=dict(template.attributes),
        regions=[template.regions[0].clone()],
    )


def _matrix_product(
    lw: Lowerer, result: RelaxTensor, lhs: SSAValue, rhs: SSAValue, sizes: Sequence[SSAValue]
) -> SSAValue:
    """``linalg.matmul`` of ``lhs`` ``[b..., s, d]`` (its leading axes collapsed into
    one) by the matrix ``rhs``, expanded to the result's ``sizes``."""
    out_type = tensor_type(result)
    rank = len(sizes)
    rows = [list(range(rank - 1)), [rank - 1]]
    matrix = lhs if rank == 2 else collapse(lw, lhs, rows)
    shape = [matrix.type.get_shape()[0], out_type.get_shape()[-1]]  # pyright: ignore
    init_type = TensorType(out_type.get_element_type(), shape)
    height = sizes[0] if rank == 2 else lw.dim(matrix, 0)
    dtype = result.data_type
    acc = accumulation_type(dtype)
    if acc == dtype:
        init = _zeros(lw, dtype, init_type, [height, sizes[-1]])
        product = lw.emit_value(_linalg_matmul(matrix, rhs, init))
    else:  # a generic: xDSL's linalg.matmul body has no conversions
        init = _zeros(lw, acc, _retyped(init_type, acc), [height, sizes[-1]])

        def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
            x, y = convert(lw, xs[0], dtype, acc), convert(lw, xs[1], dtype, acc)
            return _multiply_add(lw, acc, xs[2], x, y)

        maps = [[0, 2], [2, 1], [0, 1]]
        product = generic(lw, [matrix, rhs], init, maps, [PARALLEL, PARALLEL, REDUCTION], body)
        product = _narrowed(lw, product, acc, dtype, init_type, [height, sizes[-1]])
    return product if rank == 2 else expand(lw, product, rows, out_type.get_shape(), sizes)


@lowers(OuterOp)
def lower_outer(lw: Lowerer, op: OuterOp) -> SSAValue:
    result = lw.result_type(op)
    lhs, rhs = data_type(op.x1.type), data_type(op.x2.type)
    common = tir_common_dtype(lhs, rhs)
    sizes = [lw.dims(op.x1)[0], lw.dims(op.x2)[0]]
    mul = pick(common, arith.MulfOp, arith.MuliOp)
    if common.is_bool:
        mul = arith.AndIOp

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x, y = convert(lw, xs[0], lhs, common), convert(lw, xs[1], rhs, common)
        return convert(lw, lw.emit_value(mul(x, y)), common, result.data_type)

    inputs = [lw.lowered(v)[0] for v in op.operands]
    return parallel(lw, inputs, [[0], [1]], sizes, tensor_type(result), body)


@lowers(EinsumOp)
def lower_einsum(lw: Lowerer, op: EinsumOp) -> SSAValue:
    result = lw.result_type(op)
    dtype = result.data_type
    equation = op.equation()
    fields = op.tensors.type
    assert isinstance(fields, TupleType)
    values = lw.lowered(op.tensors)
    ranks = [field.rank for field in fields.types]  # pyright: ignore[reportAttributeAccessIssue]
    ellipsis = max(
        (r - len(s) + 1 for s, r in zip(equation.inputs, ranks, strict=True) if ELLIPSIS in s),
        default=0,
    )
    covered = [f"...{i}" for i in range(ellipsis)]

    def expand(subscript: Sequence[str], rank: int) -> list[str]:
        if ELLIPSIS not in subscript:
            return list(subscript)
        at = subscript.index(ELLIPSIS)
        width = rank - len(subscript) + 1
        return [*subscript[:at], *covered[ellipsis - width :], *subscript[at + 1 :]]

    inputs = [expand(s, r) for s, r in zip(equation.inputs, ranks, strict=True)]
    output = expand(equation.output, ellipsis + len(equation.output) - 1)
    summed = sorted({label for labels in inputs for label in labels} - set(output))
    loops = {label: index for index, label in enumerate([*output, *summed])}
    extents: dict[str, list[tuple[PrimExpr | None, SSAValue]]] = {label: [] for label in loops}
    maps: list[list[int | None]] = []
    for labels, field, value in zip(inputs, fields.types, values, strict=True):
        dims = field.dims or [None] * len(labels)  # pyright: ignore[reportAttributeAccessIssue]
        axes: list[int | None] = []
        for axis, (label, dim) in enumerate(zip(labels, dims, strict=True)):
            if dim == IntImm(1):
                axes.append(None)
                continue
            axes.append(loops[label])
            extents[label].append((dim, lw.dim(value, axis) if dim is None else lw.index_of(dim)))
        maps.append(axes)
    sizes = {
        label: _check_extent(lw, op, found, f"the extents of label '{label}'")
        if found
        else lw.constant_index(1)
        for label, found in extents.items()
    }
    init = _zeros(lw, dtype, tensor_type(result), [sizes[label] for label in output])
    field_dtypes = [data_type(field) for field in fields.types]

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        factors = [convert(lw, x, d, dtype) for x, d in zip(xs, field_dtypes, strict=False)]
        return _multiply_add(lw, dtype, xs[-1], *factors)

    iterators = [PARALLEL] * len(output) + [REDUCTION] * len(summed)
    out_map = list(range(len(output)))
    return generic(lw, values, init, [*maps, out_map], iterators, body)
