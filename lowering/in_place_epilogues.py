"""Convolutions' epilogues computed in place (the tiling schedule's kernels, `units`).

The lowering gives each element-wise operation of a convolution's epilogue (a bias, a batch
norm's scale and shift, an activation, a residual add: `kernels`) a result of its own, a
``tensor.empty``. Where the epilogue is fused into the convolution's tiles
(`schedules/epilogue.py`), each tile then computed the convolution into a buffer of its own,
the bias into another and only the last operation into the result (in MobileNetV2's 16 → 96
layer at 112², 28% of the kernel was the stores of those copies); where it is not (im2col,
depthwise convolutions), each operation wrote a new buffer of the whole result.

So each such operation is rewritten to write into the operand it reads element by element
(destination-passing style: ``ins(%conv, %bias) outs(%empty)`` becomes
``ins(%bias) outs(%conv)``, the body reading the old value as its output's), when that
operand is the convolution's result (or the previous step of the chain) and nothing else reads
it. The fusion then follows the chain through the destinations down to the convolution's fill,
which writes the result's slice itself (``scf.forall``'s ``shared_outs``), and bufferization
computes the whole chain in the result's buffer.

A chain of one step (a bias alone: MobileNetV2's projections) is left as it was: the fusion's
root writing into the convolution's result crashed mlir-opt-22 (``transform.structured.fuse``,
a SIGSEGV), so its tiles still compute the convolution into a buffer of their own. So is the
chain of a convolution whose batch is static (the ONNX model zoo's models at batch 1): there
the fusion crashed mlir-opt-22 the same way for any chain written in place; models imported
with a symbolic batch, as the ONNX importer gives them, are rewritten.
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, Conv2DNgchwGfchwOp, GenericOp
from xdsl.ir import Block, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from .building import generic_op
from .prepacked_weights import Builder
from .schedules.epilogue import EPILOGUE

CONVOLUTIONS = (Conv2DNchwFchwOp, Conv2DNgchwGfchwOp)
"""The contractions whose epilogues are computed in place (a grouped convolution's result
read through its ``collapse_shape``)."""


def epilogues_in_place(module: ModuleOp) -> None:
    """Rewrite (in place) the element-wise operations after ``module``'s convolutions to
    write into the value they read (`_reads_in_place`)."""
    for op in [op for op in module.walk() if isinstance(op, CONVOLUTIONS)]:
        value = op.results[0]
        if not isinstance(value.type, TensorType) or value.type.get_shape()[0] != DYNAMIC_INDEX:
            continue  # a static batch (see the module's docstring)
        reshape = value.get_user_of_unique_use()
        if isinstance(reshape, tensor.CollapseShapeOp):
            value = reshape.result
        step = _reads_in_place(value)
        if step is not None and EPILOGUE in step.attributes:
            continue  # a chain of one step: the fusion's root (see the module's docstring)
        while step is not None:
            value = _write_into(step, value)
            step = _reads_in_place(value)


def _reads_in_place(value: SSAValue) -> GenericOp | None:
    """The element-wise ``linalg.generic`` that is ``value``'s only use, if it reads it as an
    input of its result's type and identity map, and its one output is a ``tensor.empty``
    its body does not read."""
    op = value.get_user_of_unique_use()
    if not isinstance(op, GenericOp) or len(op.outputs) != 1 or value in op.outputs:
        return None
    if any(i.data != IteratorType.PARALLEL for i in op.iterator_types):
        return None
    output = op.outputs[0]
    maps = [m.data for m in op.indexing_maps]
    identity = AffineMap.identity(len(op.iterator_types))
    position = list(op.inputs).index(value)
    if value.type != output.type or maps[position] != identity or maps[-1] != identity:
        return None
    if not isinstance(output.owner, tensor.EmptyOp) or op.body.block.args[-1].uses:
        return None
    return op


def _write_into(op: GenericOp, value: SSAValue) -> SSAValue:
    """Replace ``op`` by the same computation with ``value`` as its output; its result."""
    position = list(op.inputs).index(value)
    inputs = [v for i, v in enumerate(op.inputs) if i != position]
    maps = [m for i, m in enumerate(op.indexing_maps) if i != position]
    old = op.body.block
    kept = [a for i, a in enumerate(old.args[:-1]) if i != position]
    body = Block(arg_types=[a.type for a in kept] + [old.args[position].type])
    for arg, new in zip([*kept, old.args[position]], body.args, strict=True):
        arg.replace_all_uses_with(new)
    for inner in list(old.ops):
        inner.detach()
        body.add_op(inner)
    iterators = ArrayAttr(list(op.iterator_types))
    rewritten = generic_op(inputs, [value], body, ArrayAttr[AffineMapAttr](maps), iterators)
    rewritten.attributes.update(op.attributes)
    Rewriter.insert_op(rewritten, InsertPoint.before(op))
    empty = op.outputs[0].owner
    op.results[0].replace_all_uses_with(rewritten.results[0])
    op.detach()
    op.erase()
    if isinstance(empty, tensor.EmptyOp) and not empty.results[0].uses:
        empty.detach()
        empty.erase()
    return rewritten.results[0]


def write_afresh(value: SSAValue) -> None:
    """Undo `_write_into` for the step written in place into ``value`` (a view of another
    layout, `flat_rows`), if any: it reads ``value`` and writes a ``tensor.empty``, so that the
    chain after it is written in place into contiguous memory. (A chain ending in the view
    was copied out of it when the kernel returned, by the C runtime's element-wise
    ``memrefCopy``, on one thread.)"""
    op = value.get_user_of_unique_use()
    if not isinstance(op, GenericOp) or list(op.outputs) != [value]:
        return
    build = Builder(op)
    element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    empty = build.empty(value.type.get_shape(), element, build.sizes(value))  # pyright: ignore
    identity = AffineMapAttr(AffineMap.identity(len(op.iterator_types)))
    maps = [*list(op.indexing_maps)[: len(op.inputs)], identity, identity]
    old = op.body.block
    body = Block(arg_types=[*(a.type for a in old.args), old.args[-1].type])
    for arg, new in zip(old.args, body.args, strict=False):
        arg.replace_all_uses_with(new)
    for inner in list(old.ops):
        inner.detach()
        body.add_op(inner)
    iterators = ArrayAttr(list(op.iterator_types))
    inputs = [*op.inputs, value]
    rewritten = generic_op(inputs, [empty], body, ArrayAttr[AffineMapAttr](maps), iterators)
    rewritten.attributes.update(op.attributes)
    Rewriter.replace_op(op, rewritten)
