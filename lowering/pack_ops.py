"""``linalg.pack`` and ``linalg.unpack`` (MLIR 22), which xDSL 0.74 does not define: only built
and printed (in the generic form ``mlir-opt`` reads), for the kernels whose constant operands are
packed at compile time (``prepacked_weights``).

``pack`` copies a tensor into blocks: the dimensions ``inner_dims_pos`` are split into outer
ones of ``ceil(size / tile)`` blocks and inner ones of ``static_inner_tiles`` elements, the inner
ones last, the last blocks padded with ``padding_value``; ``unpack`` is the inverse, dropping the
padding."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IndexType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)

from .building import i64_array


@irdl_op_definition
class PackOp(IRDLOperation):
    name = "linalg.pack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)
    inner_dims_pos = prop_def(DenseArrayBase)
    static_inner_tiles = prop_def(DenseArrayBase)
    outer_dims_perm = opt_prop_def(DenseArrayBase)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        padding: SSAValue,
        dims: Sequence[int],
        tiles: Sequence[int],
        outer_order: Sequence[int] | None = None,
    ):
        """``outer_order``: the blocks' dimensions as a permutation of the source's (by
        default in its order)."""
        properties: dict[str, Attribute] = {
            "inner_dims_pos": i64_array(*dims),
            "static_inner_tiles": i64_array(*tiles),
        }
        if outer_order is not None:
            properties["outer_dims_perm"] = i64_array(*outer_order)
        super().__init__(
            operands=[source, dest, padding, []], result_types=[dest.type], properties=properties
        )


@irdl_op_definition
class UnPackOp(IRDLOperation):
    name = "linalg.unpack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    inner_tiles = var_operand_def(IndexType)
    inner_dims_pos = prop_def(DenseArrayBase)
    static_inner_tiles = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    def __init__(self, source: SSAValue, dest: SSAValue, dims: Sequence[int], tiles: Sequence[int]):
        properties: dict[str, Attribute] = {
            "inner_dims_pos": i64_array(*dims),
            "static_inner_tiles": i64_array(*tiles),
        }
        super().__init__(
            operands=[source, dest, []], result_types=[dest.type], properties=properties
        )
