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
* an input of a ``linalg`` operation larger than its indexing map reads (the data of a
  strided convolution or pooling whose last window stops short of the end) is cropped
  to what it reads, ``tensor.extract_slice``: where that window is the only one (an
  output of extent 1), IREE 3.13 folds the unit loop away, the map ``oh * 2 + kh``
  becomes ``kh``, and its verifier then wants the input's extent equal to the kernel's
  ("slice along dimension 1 runs out-of-bounds: 511 >= 288" in ResNet-18);
* a ``linalg.fill`` that a reduction reads becomes the broadcast of a 0-d tensor: IREE
  3.13 folds a filled input into a reduction and loses its extent, so the sum of four
  ones is 1 (``relax.nonzero`` of a constant counted one element, and IREE then
  rejected its sizes);
* named element-wise ``linalg`` operations (``linalg.add``, ``linalg.exp``, ...; a
  ``call_tir`` target may use them) become the ``linalg.generic`` they stand for: IREE
  3.13's MLIR no longer has them.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, LinalgStructuredOperation
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from .call_depth import remove_counter
from .interpreter.structured import linear_form
from .ops.common import PARALLEL, REDUCTION


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
        elif isinstance(op, LinalgStructuredOperation):
            _crop_unread(op)
            if REDUCTION in op.get_iterator_types().data:
                _broadcast_filled_inputs(op)
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


def _crop_unread(op: LinalgStructuredOperation) -> None:
    """Each input sliced to the part its indexing map reads, where that is known to be
    less than the input's static extent."""
    maps = [attr.data for attr in op.get_indexing_maps()]
    loop_sizes: dict[int, int] = {}
    for operand, map in zip(op.operands, maps, strict=True):
        if isinstance(operand.type, TensorType):
            for expr, size in zip(map.results, operand.type.get_shape(), strict=True):
                if isinstance(expr, AffineDimExpr) and size != DYNAMIC_INDEX:
                    loop_sizes[expr.position] = size
    for index, (operand, map) in enumerate(zip(op.inputs, maps, strict=False)):
        type = operand.type
        if not isinstance(type, TensorType):
            continue
        shape = type.get_shape()
        read = [_extent(expr, loop_sizes) for expr in map.results]
        if not any(r is not None and r < s for r, s in zip(read, shape, strict=True)):
            continue
        sizes: list[SSAValue | int] = []
        dims: list[Operation] = []
        for axis, (extent, size) in enumerate(zip(read, shape, strict=True)):
            if extent is not None and extent < size:
                sizes.append(extent)
            elif size != DYNAMIC_INDEX:
                sizes.append(size)
            else:
                position = arith.ConstantOp(IntegerAttr(axis, IndexType()))
                dims += [position, tensor.DimOp(operand, position)]
                sizes.append(dims[-1].results[0])
        rank = len(shape)
        result = TensorType(
            type.element_type, [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        )
        cropped = tensor.ExtractSliceOp(operand, [0] * rank, sizes, [1] * rank, result)
        Rewriter.insert_op([*dims, cropped], InsertPoint.before(op))
        op.operands[index] = cropped.result


def _broadcast_filled_inputs(op: LinalgStructuredOperation) -> None:
    """Each input that is a ``linalg.fill``, as the broadcast of a 0-d tensor."""
    for index, operand in enumerate(op.inputs):
        fill = operand.owner
        if not isinstance(fill, FillOp) or not isinstance(operand.type, TensorType):
            continue
        element, rank = operand.type.element_type, operand.type.get_num_dims()
        scalar = tensor.FromElementsOp(fill.inputs[0], result_type=TensorType(element, []))
        body = Block(arg_types=[element, element])
        body.add_op(YieldOp(body.args[0]))
        broadcast = GenericOp(
            [scalar.result],
            [fill.outputs[0]],
            Region(body),
            [AffineMapAttr(AffineMap(rank, 0, ())), AffineMapAttr(AffineMap.identity(rank))],
            [PARALLEL] * rank,
            [operand.type],
        )
        Rewriter.insert_op([scalar, broadcast], InsertPoint.before(op))
        op.operands[index] = broadcast.results[0]


def _extent(expr: AffineExpr, loop_sizes: dict[int, int]) -> int | None:
    """How far an indexing expression reaches (its largest value plus one) over the
    loops' static sizes, when it is linear with non-negative coefficients; None
    otherwise."""
    form = linear_form(expr)
    if form is None or form.constant < 0:
        return None
    reach = form.constant + 1
    for loop, coefficient in form.coefficients:
        size = loop_sizes.get(loop)
        if size is None or size == 0 or coefficient < 0:
            return None
        reach += coefficient * (size - 1)
    return reach


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
