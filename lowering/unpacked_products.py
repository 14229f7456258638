"""Batched products whose blocks need no packing, marked for the schedule (a kernel unit's
rewrite before tiling, `units`).

A ``linalg.generic`` multiply-add over loops ``batch..., rows, columns, depth`` that reads
``(batch..., rows, depth) × (batch..., depth, columns)`` into ``(batch..., rows, columns)``
(attention's two products, once ``permute_dims`` has made the keys' transpose), with static
rows and columns that are whole register tiles, is marked `UNPACKED`: the schedule register-
tiles it in place (`schedules.unpacked_products`). Every other product keeps the packed
schedule, whose zero-padded blocks serve ragged and symbolic sizes without masks.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType, UnitAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir.affine import AffineExpr, AffineMap

from .ops.common import PARALLEL, REDUCTION
from .schedules.unpacked_products import UNPACKED
from .tiling import MAX_BATCH, RegisterTile


def mark_unpacked_products(module: ModuleOp, tile: RegisterTile) -> None:
    """Mark the batched products of ``module`` that `applies` to."""
    for op in module.walk():
        if isinstance(op, GenericOp) and applies(op, tile):
            op.attributes[UNPACKED] = UnitAttr()


def applies(op: GenericOp, tile: RegisterTile) -> bool:
    """Whether ``op`` is a float batched product in row-major layouts whose rows and columns
    are static whole register tiles."""
    loops = len(op.iterator_types)
    batch = loops - 3
    if not 1 <= batch <= MAX_BATCH or len(op.inputs) != 2 or len(op.outputs) != 1:
        return False
    iterators = [PARALLEL] * (batch + 2) + [REDUCTION]
    if list(op.iterator_types) != iterators or not _multiply_add(op):
        return False
    dims = [AffineExpr.dimension(d) for d in range(loops)]
    batches, rows, columns, depth = dims[:batch], dims[batch], dims[batch + 1], dims[batch + 2]
    wanted = [(*batches, rows, depth), (*batches, depth, columns), (*batches, rows, columns)]
    maps = [AffineMapAttr(AffineMap(loops, 0, tuple(results))) for results in wanted]
    if list(op.indexing_maps) != maps:
        return False
    result = op.outputs[0].type
    assert isinstance(result, TensorType)
    *_, m, n = result.get_shape()
    return m > 0 and n > 0 and m % tile.m == 0 and n % tile.n == 0


def _multiply_add(op: GenericOp) -> bool:
    """Whether ``op``'s body is ``out + lhs · rhs`` in floats."""
    body = list(op.body.block.ops)
    if len(body) != 3 or not isinstance(body[0], arith.MulfOp):
        return False
    add = body[1]
    return isinstance(add, arith.AddfOp) and set(add.operands) == {
        body[0].result,
        op.body.block.args[2],
    }
