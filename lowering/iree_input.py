"""The lowered module as IREE's compiler takes it, which differs from what ``mlir-opt``
compiles in these ways:

* the guard on call depth is left out (``call_depth.remove_counter``): it is a mutable
  global, which IREE's input cannot hold, and the IREE backend refuses recursion;
* in an ``scf.for``, a carried tensor with dynamic sizes is used through a full
  ``tensor.extract_slice`` whose sizes are those of the initial value (``tensor.dim``
  before the loop): IREE cannot find the sizes of a loop-carried tensor ("dynamic
  dimensions must have been resolved prior to leaving the flow dialect"). The
  lowering's loops (sorting networks along a symbolic axis, scatters, index maps)
  keep the sizes of what they carry;
* ``tensor.insert`` of one element becomes ``tensor.insert_slice`` of a one-element
  tensor. IREE 3.13 runs the loops of scatters and index maps (an ``scf.for`` carrying
  the tensor) on the host, and its stream dialect turns such an insert into a fill
  longer than the element (20 bytes for one ``f32``), overwriting the elements after
  it (``test/lowering/test_iree.py`` holds the minimal case); the slice
  is copied exactly;
* named element-wise ``linalg`` operations (``linalg.add``, ``linalg.exp``, ...; a
  ``call_tir`` target may use them) become the ``linalg.generic`` they stand for: IREE
  3.13's MLIR no longer has them.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from .call_depth import remove_counter


def iree_input(lowered: ModuleOp) -> ModuleOp:
    """A copy of ``lowered`` that IREE compiles to code computing the same."""
    module = lowered.clone()
    remove_counter(module)
    for op in list(module.walk()):
        if isinstance(op, tensor.InsertOp):
            _insert_as_slice(op)
        elif isinstance(op, scf.ForOp):
            _tie_carried_sizes(op)
        elif isinstance(op, ElementwiseOperation):
            _generalize(op)
    return module


def _generalize(op: ElementwiseOperation) -> None:
    """A named element-wise operation as the ``linalg.generic`` it stands for."""
    generic = GenericOp(
        list(op.inputs),
        list(op.outputs),
        op.body.clone(),
        op.get_indexing_maps(),
        op.get_iterator_types(),
        [result.type for result in op.results],
    )
    Rewriter.replace_op(op, generic)


def _insert_as_slice(op: tensor.InsertOp) -> None:
    """``tensor.insert`` rewritten as the ``tensor.insert_slice`` of a one-element tensor."""
    destination = op.dest.type
    assert isinstance(destination, TensorType)
    rank = destination.get_num_dims()
    element = tensor.FromElementsOp(
        op.scalar, result_type=TensorType(destination.element_type, [1] * rank)
    )
    insert = tensor.InsertSliceOp.get(element.result, op.dest, [1] * rank, offsets=op.indices)
    Rewriter.replace_op(op, [element, insert])


def _tie_carried_sizes(loop: scf.ForOp) -> None:
    """Use each dynamically sized tensor the loop carries through a slice of the sizes
    of its initial value."""
    body = loop.body.block
    for init, carried in zip(loop.iter_args, body.args[1:], strict=True):
        type = carried.type
        if not isinstance(type, TensorType) or DYNAMIC_INDEX not in type.get_shape():
            continue
        sizes: list[Operation] = []
        for axis, size in enumerate(type.get_shape()):
            if size == DYNAMIC_INDEX:
                position = arith.ConstantOp(IntegerAttr(axis, IndexType()))
                sizes += [position, tensor.DimOp(init, position)]
        Rewriter.insert_op(sizes, InsertPoint.before(loop))
        dims = [op.results[0] for op in sizes if isinstance(op, tensor.DimOp)]
        uses = [use for use in carried.uses]
        tied = _full_slice(carried, type, dims)
        Rewriter.insert_op(tied, InsertPoint.at_start(body))
        for use in uses:
            use.operation.operands[use.index] = tied.result


def _full_slice(value: BlockArgument, type: TensorType, dims: list[SSAValue]) -> Operation:
    """``tensor.extract_slice`` of all of ``value``, its dynamic sizes ``dims``."""
    shape = type.get_shape()
    return tensor.ExtractSliceOp.build(
        operands=[value, [], dims, []],
        result_types=[type],
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, [0] * len(shape)),
            "static_sizes": DenseArrayBase.from_list(i64, list(shape)),
            "static_strides": DenseArrayBase.from_list(i64, [1] * len(shape)),
        },
    )
