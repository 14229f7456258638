"""Matrix products read a transposed operand through the transpose (native code, before the
kernels are outlined, `kernels`).

ONNX's ``Gemm`` with ``transB`` (a classifier's ``1000 × C`` weights) is imported as
``matmul(x, permute_dims(w))``: lowered as it is, the transpose is a kernel of its own that
copies the weights on every call, reading them a row apart (3.9 ms a call for MobileNetV2's
``1000 × 1280`` weights, more than the product), and the product's schedule then packs the copy
again. With constant weights ``relax-fold-constant`` transposes them at compile time; with
the weights as parameters, each ``linalg.matmul`` whose operand is the only use of a 2-D
``linalg.transpose`` becomes the same contraction as a ``linalg.generic`` reading the
transpose's input through a transposed map: the schedule packs it into its blocks a cache
tile at a time (`tiling`), transposing as it packs, and the transpose is gone.

A product of one row (a matrix-vector product) streams its weights along their rows
(`schedules.matrix_vector`): its constant right operand (``k × n``, as ``relax-fold-constant``
left it) is stored transposed at compile time and read through the transposed map too.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.dialects.linalg.ops import MatmulOp, TransposeOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from .building import generic_op
from .ops.common import PARALLEL, REDUCTION
from .prepacked_weights import constant_array, dense_constant, replace_op

ROWS, COLUMNS, DEPTH = (AffineExpr.dimension(d) for d in range(3))
OPERAND_DIMS = (((ROWS, DEPTH), (DEPTH, ROWS)), ((DEPTH, COLUMNS), (COLUMNS, DEPTH)))
"""Each operand's map over the product's loops ``rows, columns, depth``: as given, and read
through its transpose."""


def read_through_transposes(module: ModuleOp) -> None:
    """Rewrite (in place) the matrix products of ``module`` whose operands are transposed
    (`transposed_input`) to read the transposes' inputs."""
    for op in [op for op in module.walk() if isinstance(op, MatmulOp)]:
        through = [transposed_input(value) for value in op.inputs]
        transposes = [v.owner for v, s in zip(op.inputs, through, strict=True) if s is not None]
        sources = list(through)
        if one_row(op) and sources[1] is None:
            sources[1] = transposed_constant(op)
        if all(source is None for source in sources):
            continue
        inputs = [v if s is None else s for v, s in zip(op.inputs, sources, strict=True)]
        maps = [dims[s is not None] for dims, s in zip(OPERAND_DIMS, sources, strict=True)]
        indexing = ArrayAttr(
            [AffineMapAttr(AffineMap(3, 0, exprs)) for exprs in (*maps, (ROWS, COLUMNS))]
        )
        iterators = ArrayAttr([PARALLEL, PARALLEL, REDUCTION])
        product = generic_op(inputs, op.outputs, op.body.detach_block(0), indexing, iterators)
        Rewriter.insert_op(product, InsertPoint.before(op))
        replace_op(op, product.results[0])
        for transpose in transposes:  # unused now: erased with its destination
            replace_op(transpose, transpose.operands[0])


def one_row(op: MatmulOp) -> bool:
    """Whether ``op``'s left operand is one row (static): a matrix-vector product."""
    return op.inputs[0].type.get_shape()[0] == 1  # pyright: ignore[reportAttributeAccessIssue]


def transposed_constant(op: MatmulOp) -> SSAValue | None:
    """The transpose of ``op``'s constant right operand, a constant inserted before ``op``;
    None if that operand is not a constant."""
    array = constant_array(op.inputs[1])
    if array is None:
        return None
    element = op.inputs[1].type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    transposed = dense_constant(array.T, element)
    Rewriter.insert_op(transposed, InsertPoint.before(op))
    return transposed.result


def transposed_input(value: SSAValue) -> SSAValue | None:
    """The input of the 2-D ``linalg.transpose`` defining ``value``, if ``value`` has no other
    use and the input is not a constant (`relax-fold-constant` transposed those)."""
    transpose = value.owner
    if not isinstance(transpose, TransposeOp) or not value.has_one_use():
        return None
    if list(transpose.permutation.get_values()) != [1, 0]:
        return None
    source = transpose.inputs[0]
    return None if constant_array(source) is not None else source
