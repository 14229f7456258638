"""``scf.forall``, ``scf.forall.in_parallel`` and ``tensor.parallel_insert_slice`` (MLIR 22),
which xDSL 0.74 does not define: only built and printed (in the generic form ``mlir-opt``
reads), for the kernels that share a loop of their own among the threads (`phase_split`).

``forall`` runs its body once for each point of its iteration space (lower bounds 0, steps
1, upper bounds static or ``index`` values), in any order or at once; each point writes its
slices of the ``shared_outs`` tensors through the ``parallel_insert_slice`` ops of the
``in_parallel`` terminator, and the results are those tensors once every point has."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IndexType, TensorType
from xdsl.ir import Block, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator

from .building import i64_array, slice_parts, static_part


@irdl_op_definition
class ForallOp(IRDLOperation):
    name = "scf.forall"

    dynamic_lower_bound = var_operand_def(IndexType)
    dynamic_upper_bound = var_operand_def(IndexType)
    dynamic_step = var_operand_def(IndexType)
    outputs = var_operand_def(TensorType)
    staticLowerBound = prop_def(DenseArrayBase)
    staticUpperBound = prop_def(DenseArrayBase)
    staticStep = prop_def(DenseArrayBase)
    results_ = var_result_def(TensorType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, bounds: Sequence[int | SSAValue], outputs: Sequence[SSAValue], body: Block):
        """A loop from 0 to each of ``bounds`` by steps of 1 writing into ``outputs``;
        ``body``'s arguments are the indices, then the outputs."""
        dynamic = [b for b in bounds if not isinstance(b, int)]
        super().__init__(
            operands=[[], dynamic, [], outputs],
            result_types=[[o.type for o in outputs]],
            properties={
                "staticLowerBound": i64_array(*[0] * len(bounds)),
                "staticUpperBound": static_part(bounds),
                "staticStep": i64_array(*[1] * len(bounds)),
            },
            regions=[Region(body)],
        )


@irdl_op_definition
class InParallelOp(IRDLOperation):
    name = "scf.forall.in_parallel"

    body = region_def("single_block")

    traits = traits_def(IsTerminator())

    def __init__(self, inserts: Sequence[ParallelInsertSliceOp]):
        super().__init__(regions=[Region(Block(inserts))])


@irdl_op_definition
class ParallelInsertSliceOp(IRDLOperation):
    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase)
    static_sizes = prop_def(DenseArrayBase)
    static_strides = prop_def(DenseArrayBase)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        offsets: Sequence[int | SSAValue],
        sizes: Sequence[int | SSAValue],
    ):
        """``source`` into the slice of ``dest`` at ``offsets`` of ``sizes`` (unit strides)."""
        dynamic_offsets, dynamic_sizes, properties = slice_parts(offsets, sizes, [1] * len(sizes))
        super().__init__(
            operands=[source, dest, dynamic_offsets, dynamic_sizes, []], properties=properties
        )
