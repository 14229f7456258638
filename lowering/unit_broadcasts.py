"""Operands broadcast along unit dimensions read without them (the tiling schedule's kernels,
`units`).

The lowering reads a broadcast operand with a constant index where it has size 1: a
convolution's bias ``1 × C × 1 × 1`` through ``(d0, d1, d2, d3) -> (0, d1, 0, 0)``. Such a map
is not a projected permutation, and `schedules/outer_threads.py` shares only operations whose
maps all are (a ``floordiv``/``mod`` map's slices are not its loops' slices), so the bias adds
of convolutions whose epilogue is not fused into their tiles ran on one thread. Here the
operand is collapsed to its other dimensions (``C``, a reshape that copies nothing) and read
through ``(d0, d1, d2, d3) -> (d1)``: the same loops, the same values, and a projected
permutation.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from .building import generic_op
from .ops.common import reassociation


def drop_unit_broadcasts(module: ModuleOp) -> None:
    """Rewrite (in place) the ``linalg.generic`` operations of ``module`` that read an input
    with a constant 0 where it has size 1 (`_unit_dims`) to read it collapsed."""
    for op in [op for op in module.walk() if isinstance(op, GenericOp)]:
        maps = [m.data for m in op.indexing_maps]
        if any(_unit_dims(v, m) for v, m in zip(op.inputs, maps, strict=False)):
            _read_collapsed(op, maps)


def _unit_dims(value: SSAValue, read: AffineMap) -> list[int]:
    """The dimensions of size 1 that ``read`` indexes with the constant 0, if ``value`` is a
    static tensor with another dimension (a tensor of ones is left as it is)."""
    shape = value.type.get_shape() if isinstance(value.type, TensorType) else ()
    units = [
        d
        for d, e in enumerate(read.results)
        if isinstance(e, AffineConstantExpr) and e.value == 0 and shape[d] == 1
    ]
    return units if len(units) < len(shape) else []


def _read_collapsed(op: GenericOp, maps: list[AffineMap]) -> None:
    """Replace ``op`` by the same operation reading each input with unit dimensions collapsed
    to its other ones."""
    inputs, new_maps = [], []
    for value, read in zip(op.inputs, maps, strict=False):
        units = _unit_dims(value, read)
        if units:
            value, read = _collapsed(op, value, read, units)
        inputs.append(value)
        new_maps.append(AffineMapAttr(read))
    new_maps += [AffineMapAttr(m) for m in maps[len(op.inputs) :]]
    body = op.body.detach_block(0)
    iterators = ArrayAttr(list(op.iterator_types))
    rewritten = generic_op(inputs, list(op.outputs), body, ArrayAttr(new_maps), iterators)
    rewritten.attributes.update(op.attributes)
    Rewriter.replace_op(op, rewritten)


def _collapsed(
    op: GenericOp, value: SSAValue, read: AffineMap, units: list[int]
) -> tuple[SSAValue, AffineMap]:
    """``value`` without its dimensions ``units`` (each merged into the kept dimension before
    it, or the first one), inserted before ``op``, and ``read`` without them."""
    kept = [d for d in range(len(read.results)) if d not in units]
    groups: list[list[int]] = [[] for _ in kept]
    for d in range(len(read.results)):
        group = max(0, sum(1 for k in kept if k <= d) - 1)
        groups[group].append(d)
    shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    collapse = tensor.CollapseShapeOp.create(
        operands=[value],
        result_types=[TensorType(element, [shape[d] for d in kept])],
        properties={"reassociation": reassociation(groups)},
    )
    Rewriter.insert_op(collapse, InsertPoint.before(op))
    results = tuple(read.results[d] for d in kept)
    return collapse.results[0], AffineMap(read.num_dims, read.num_symbols, results)
