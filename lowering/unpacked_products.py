"""Batched products whose blocks need no packing, marked for the schedule (a kernel unit's
rewrite before tiling, `units`).

An f32 multiply-add ``linalg.generic`` with batch dimensions and one row (m), one column (n)
and one depth (k) dimension, whose left operand is read along k, and right operand and result
along n, in their last axes (attention's second product in the layouts the lowering gives it:
the probabilities ``(batch, heads, rows, k)`` times the values ``(batch, k, heads, n)``, the
heads' transposes folded into the maps), with static columns that are whole register tiles, is
marked `UNPACKED` and its loops put in the order ``batch..., m, n, k``: the schedule
register-tiles it in place (`schedules.unpacked_products`). Every other product keeps the
packed schedule, whose zero-padded blocks read any layout.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    ModuleOp,
    TensorType,
    UnitAttr,
    f32,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from .ops.common import PARALLEL, REDUCTION
from .schedules.unpacked_products import UNPACKED
from .tiling import MAX_BATCH, RegisterTile


def mark_unpacked_products(module: ModuleOp, tile: RegisterTile) -> None:
    """Mark the batched products of ``module`` that `loop_order` finds, their loops put in
    that order."""
    for op in module.walk():
        if isinstance(op, GenericOp) and (order := loop_order(op, tile)) is not None:
            _reorder_loops(op, order)
            op.attributes[UNPACKED] = UnitAttr()


def loop_order(op: GenericOp, tile: RegisterTile) -> list[int] | None:
    """The loops of ``op`` as ``batch..., m, n, k`` if it is an f32 batched product read along
    k (left) and n (right, result) in its operands' last axes, with static columns that are
    whole register tiles; else None."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or not _multiply_add(op):
        return None
    types = [operand.type for operand in op.operands]
    shapes = [t.get_shape() for t in types if isinstance(t, TensorType)]
    if len(shapes) != 3 or any(t.get_element_type() != f32 for t in types):  # pyright: ignore
        return None
    maps = [m.data for m in op.indexing_maps]
    if not all(m.is_projected_permutation() for m in maps):
        return None
    if not all(isinstance(e, AffineDimExpr) for m in maps for e in m.results):
        return None
    left, right, result = (_dims(m) for m in maps)
    batches = [d for d in result if d in left and d in right]
    rows = [d for d in result if d in left and d not in right]
    columns = [d for d in result if d in right and d not in left]
    depth = [d for d in left if d in right and d not in result]
    if not 1 <= len(batches) <= MAX_BATCH or [len(rows), len(columns), len(depth)] != [1, 1, 1]:
        return None
    order = [*batches, rows[0], columns[0], depth[0]]
    iterators = [PARALLEL] * (len(order) - 1) + [REDUCTION]
    if sorted(order) != list(range(len(op.iterator_types))):
        return None
    if [op.iterator_types.data[d] for d in order] != iterators:
        return None
    if (left[-1], right[-1], result[-1]) != (depth[0], columns[0], columns[0]):
        return None
    n = shapes[1][-1]
    return order if n > 0 and n % tile.n == 0 else None


def _reorder_loops(op: GenericOp, order: list[int]) -> None:
    """Make loop ``order[i]`` of ``op`` its ``i``-th."""
    position = {old: new for new, old in enumerate(order)}
    maps = []
    for attr in op.indexing_maps:
        results = [AffineExpr.dimension(position[d]) for d in _dims(attr.data)]
        maps.append(AffineMapAttr(AffineMap(len(order), 0, tuple(results))))
    op.indexing_maps = ArrayAttr(maps)
    op.iterator_types = ArrayAttr([op.iterator_types.data[d] for d in order])


def _dims(affine_map: AffineMap) -> list[int]:
    """The loops of the results of ``affine_map``, a projected permutation."""
    return [e.position for e in affine_map.results if isinstance(e, AffineDimExpr)]


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
