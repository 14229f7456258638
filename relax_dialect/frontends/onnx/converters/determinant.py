"""Det: the determinant of each trailing square matrix, by Gaussian elimination
with partial pivoting (LAPACK's LU factorisation, which NumPy's ``det`` uses),
unrolled over the (known) order: at each column the row of the largest
magnitude is swapped up, flipping the sign, and the rows below lose their
multiple of it; the determinant is the sign times the product of the pivots. A
zero column leaves the rows as they are (its pivot makes the product 0)."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ..context import NodeContext
from .registry import converter
from .values import known_shape, numpy_dtype, positions, product, static_dim


@converter("Det", since=11)
def det(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    dims = known_shape(ctx, x)
    if len(dims) < 2:
        ctx.error(f"the input must be of rank 2 or more (matrices), not {len(dims)}")
    order = static_dim(ctx, dims[-1], "eliminating the columns")
    if static_dim(ctx, dims[-2], "eliminating the columns") != order:
        ctx.error(f"the matrices are not square: {dims[-2]} by {order}")
    dtype = numpy_dtype(ctx, x)
    batch = product(dims[:-2])
    matrices: SSAValue | Call = ctx.emit("relax.reshape", x, Shape((batch, order, order)))
    sign: Call | np.ndarray = np.array(1, dtype)
    rows = positions(order, 3, 1)
    full = Shape((batch, order, order))
    for k in range(order - 1):
        column = call("relax.strided_slice", matrices, [1, 2], [k, k], [order, k + 1])
        largest = call("relax.argmax", call("relax.abs", column), axis=1, keepdims=True)
        pivot_row = ctx.emit("relax.add", largest, np.array(k, np.int64))
        swapped_in = call("relax.equal", rows, np.array(k, np.int64))
        swapped_out = call("relax.equal", rows, pivot_row)
        moves = call(
            "relax.where",
            swapped_in,
            pivot_row,
            call("relax.where", swapped_out, np.array(k, np.int64), rows),
        )
        swapped = ctx.emit(
            "relax.gather_elements", matrices, call("relax.broadcast_to", moves, full), axis=1
        )
        stayed = call("relax.equal", pivot_row, np.array(k, np.int64))
        sign = call(
            "relax.multiply",
            sign,
            call("relax.where", stayed, np.array(1, dtype), np.array(-1, dtype)),
        )
        top = call("relax.strided_slice", swapped, [1], [0], [k + 1])
        pivot = ctx.emit("relax.strided_slice", swapped, [1, 2], [k, k], [k + 1, k + 1])
        row = call("relax.strided_slice", swapped, [1], [k], [k + 1])
        below = call("relax.strided_slice", swapped, [1], [k + 1], [order])
        leading = call("relax.strided_slice", swapped, [1, 2], [k + 1, k], [order, k + 1])
        zero = np.array(0, dtype)
        factors = call(
            "relax.where",
            call("relax.equal", pivot, zero),
            zero,
            call("relax.divide", leading, pivot),
        )
        reduced = call("relax.subtract", below, call("relax.multiply", factors, row))
        matrices = ctx.emit("relax.concat", [top, reduced], axis=1)
    flat = call("relax.reshape", matrices, Shape((batch, 1, order * order)))
    diagonal = np.arange(0, order * order, order + 1, dtype=np.int64)
    pivots = call("relax.prod", call("relax.take", flat, diagonal, axis=2), axis=[2], keepdims=True)
    determinants = call("relax.multiply", sign, pivots)
    return ctx.emit("relax.reshape", determinants, Shape(tuple(dims[:-2])))
