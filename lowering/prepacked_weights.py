"""Constant weights packed once, at compile time (the tiling schedule's kernels, `units`).

The schedule (`tiling`) packs both operands of a matrix product into register-tile blocks on
every call: for a layer whose weights are constants (ONNX initializers, batch norms folded into
them) that re-packs megabytes of the same data each time (9.4 MB for ResNet-18's 512-channel
3 × 3 convolution), where onnxruntime packs once when the session starts. So, in each kernel
before the schedule runs:

1. a ``linalg.conv_2d_nchw_fchw`` whose filter is a constant and that the schedule would
   compute through im2col (all sizes static but the batch; not the direct convolution's unit
   strides and rows of a register block) becomes that im2col here: the windows copied into a
   ``C·KH·KW × N·OH·OW`` matrix (a ``linalg.generic`` whose innermost loop runs along an output
   row; dilations included), the product of the filter as a ``F × C·KH·KW`` constant with it
   (``linalg.matmul``), and the result laid out as ``N × F × OH × OW``;
2. a ``linalg.matmul`` with one constant operand (a dense layer's weights, the filter above)
   becomes the packed product that the schedule's ``pack_greedily`` would make of it (operands
   in ``m × k``, ``k × n`` and ``m × n`` blocks of the `RegisterTile`, zero-padded), its
   constant operand packed in NumPy: the kernel reads a packed constant. The other operand and
   the result are packed (``linalg.pack``) and unpacked as before, and the schedule tiles the
   product (``tiling._prepacked_matcher``).

Weights that are parameters keep the packing on each call, and so do constants of other
element types than ``f32`` (not tested).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, FillOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from .building import contraction_op, fill_op, generic_op, i64_array
from .ops.common import PARALLEL, REDUCTION, reassociation
from .pack_ops import PackOp, UnPackOp
from .schedules import direct_convolution
from .schedules.outer_threads import mark_loop
from .tiling import PREPACKED_LOOPS, RegisterTile

PACKED_TYPES = (Float32Type,)
"""Element types of the constants packed (the one tested)."""


def prepack_weights(module: ModuleOp, tile: RegisterTile) -> None:
    """Rewrite (in place) the convolutions and matrix products of ``module`` that read a
    constant operand so that they read it packed in blocks of ``tile``."""
    for op in [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]:
        if _im2col_applies(op, tile):
            _as_matrix_product(op)
    for op in [op for op in module.walk() if isinstance(op, MatmulOp)]:
        _prepack(op, tile)


def constant_array(value: SSAValue) -> np.ndarray | None:
    """The data of a dense constant of a `PACKED_TYPES` element, None for any other value."""
    op = value.owner
    if not isinstance(op, arith.ConstantOp) or not isinstance(op.value, DenseIntOrFPElementsAttr):
        return None
    element = op.value.get_element_type()
    if not isinstance(element, PACKED_TYPES):
        return None
    flat = np.frombuffer(op.value.data.data, np.dtype(element.format).newbyteorder("<"))
    shape = op.value.get_shape()
    return np.broadcast_to(flat, shape) if flat.size == 1 else flat.reshape(shape)


def pack_array(array: np.ndarray, tiles: Sequence[int]) -> np.ndarray:
    """A matrix in blocks as ``linalg.pack`` with ``inner_dims_pos = [0, 1]`` lays it out:
    ``[ceil(rows / tiles[0]), ceil(columns / tiles[1]), tiles[0], tiles[1]]``, zero-padded."""
    (rows, columns), (tr, tc) = array.shape, tiles
    outer = (-(-rows // tr), -(-columns // tc))
    padded = np.zeros((outer[0] * tr, outer[1] * tc), array.dtype)
    padded[:rows, :columns] = array
    return np.ascontiguousarray(padded.reshape(outer[0], tr, outer[1], tc).transpose(0, 2, 1, 3))


def panels_first(blocks: np.ndarray) -> np.ndarray:
    """Blocks ``[K, N, k, n]`` (`pack_array`) laid out ``[N, K, k, n]``: the kernel reads a
    panel's blocks down k one after the other, so that they stream from memory in a row
    instead of one block per ``N`` blocks (`PANELS_FIRST_MAPS`)."""
    return np.ascontiguousarray(blocks.transpose(1, 0, 2, 3))


def _im2col_applies(op: Conv2DNchwFchwOp, tile: RegisterTile) -> bool:
    """A convolution with a constant filter and static sizes but the batch that the schedule's
    direct convolution does not take (unit strides and rows of at least ``tile.n``)."""
    data, _, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(out, TensorType)
    if constant_array(op.inputs[1]) is None or not zero_filled(op.outputs[0]):
        return False
    if DYNAMIC_INDEX in (*data.get_shape()[1:], *out.get_shape()[1:]):
        return False
    strides, dilations = (pair(a) for a in (op.strides, op.dilations))
    return not direct_convolution.computes(strides, dilations, out.get_shape()[3], tile.n)


def pair(attr: DenseIntOrFPElementsAttr) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


def zero_filled(value: SSAValue) -> bool:
    """``value`` is a ``linalg.fill`` with the constant zero."""
    fill = value.owner
    return isinstance(fill, FillOp) and is_zero(fill.inputs[0])


def is_zero(scalar: SSAValue) -> bool:
    """``scalar`` is the constant zero."""
    constant = scalar.owner
    return (
        isinstance(constant, arith.ConstantOp)
        and isinstance(constant.value, FloatAttr | IntegerAttr)
        and constant.value.value.data == 0
    )


def dense_constant(array: np.ndarray, element) -> arith.ConstantOp:
    data = np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes()
    return arith.ConstantOp(
        DenseIntOrFPElementsAttr(TensorType(element, array.shape), BytesAttr(data))
    )


class Builder:
    """Operations inserted before one operation."""

    def __init__(self, before: Operation):
        self.at = InsertPoint.before(before)

    def add(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.at)
        return op.results[0]

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def dim(self, value: SSAValue, axis: int) -> SSAValue:
        return self.add(tensor.DimOp(value, self.index(axis)))

    def sizes(self, value: SSAValue) -> list[SSAValue]:
        """The dynamic sizes of a tensor, as ``tensor.empty`` takes them."""
        shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        return [self.dim(value, a) for a, s in enumerate(shape) if s == DYNAMIC_INDEX]

    def empty(self, shape: Sequence[int], element, sizes: Sequence[SSAValue]) -> SSAValue:
        return self.add(tensor.EmptyOp(list(sizes), TensorType(element, shape)))

    def zero(self, element) -> SSAValue:
        value = (
            FloatAttr(0.0, element) if isinstance(element, AnyFloat) else IntegerAttr(0, element)
        )
        return self.add(arith.ConstantOp(value))

    def blocks(self, size: SSAValue, tile: int) -> SSAValue:
        """``ceil(size / tile)``."""
        rounded = self.add(arith.AddiOp(size, self.index(tile - 1)))
        return self.add(arith.DivUIOp(rounded, self.index(tile)))

    def pack(self, value: SSAValue, tiles: tuple[int, int]) -> SSAValue:
        """A matrix packed into zero-padded ``tiles`` blocks (`pack_array`)."""
        shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
        outer = [
            DYNAMIC_INDEX if s == DYNAMIC_INDEX else -(-s // t)
            for s, t in zip(shape, tiles, strict=True)
        ]
        sizes = [
            self.blocks(self.dim(value, axis), tiles[axis])
            for axis in range(2)
            if shape[axis] == DYNAMIC_INDEX
        ]
        dest = self.empty([*outer, *tiles], element, sizes)
        return self.add(PackOp(value, dest, self.zero(element), [0, 1], tiles))


def _maps(*operands: Sequence[int]) -> ArrayAttr:
    loops = len(PREPACKED_LOOPS) * 2
    return ArrayAttr(
        [
            AffineMapAttr(AffineMap(loops, 0, tuple(AffineExpr.dimension(d) for d in dims)))
            for dims in operands
        ]
    )


def _operand_loops(*kinds: str) -> list[int]:
    """The loops of a packed operand's outer then inner dimensions, for its dims ``kinds``."""
    return [PREPACKED_LOOPS[k][0] for k in kinds] + [PREPACKED_LOOPS[k][1] for k in kinds]


PACKED_MAPS = _maps(_operand_loops("m", "k"), _operand_loops("k", "n"), _operand_loops("m", "n"))
PANELS_FIRST_MAPS = _maps(
    _operand_loops("m", "k"),
    [*_operand_loops("n", "k")[:2], *_operand_loops("k", "n")[2:]],
    _operand_loops("m", "n"),
)
"""`PACKED_MAPS` with the right operand's blocks ``[N, K, k, n]``: a panel's blocks in a row
(`panels_first`)."""
ITERATORS = ArrayAttr(
    [REDUCTION if k == "k" else PARALLEL for k in sorted(PREPACKED_LOOPS, key=PREPACKED_LOOPS.get)]
    * 2
)


def _prepack(op: MatmulOp, tile: RegisterTile) -> None:
    """``op`` as its packed product reading its constant operand packed, if it has exactly
    one constant operand."""
    lhs, rhs = op.inputs
    arrays = [constant_array(lhs), constant_array(rhs)]
    if (arrays[0] is None) == (arrays[1] is None):
        return
    build = Builder(op)
    tiles = [(tile.m, tile.k), (tile.k, tile.n)]
    operands = []
    for value, array, blocks in zip((lhs, rhs), arrays, tiles, strict=True):
        element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
        if array is None:
            operands.append(build.pack(value, blocks))
        else:
            operands.append(build.add(dense_constant(pack_array(array, blocks), element)))
    body = op.body.detach_block(0)
    init = op.outputs[0]
    replace_op(op, unpacked(build, packed_product(build, operands, init, body, tile), init, tile))


def packed_product(
    build: Builder,
    operands: Sequence[SSAValue],
    init: SSAValue,
    body: Block,
    tile: RegisterTile,
    maps: ArrayAttr = PACKED_MAPS,
) -> SSAValue:
    """The product of two operands packed in ``m × k`` and ``k × n`` blocks of ``tile``
    (multiply-add ``body``, the operands' blocks laid out as ``maps`` say) accumulated into the
    matrix ``init`` packed: the result in ``m × n`` blocks."""
    packed_init = build.pack(init, (tile.m, tile.n))
    return build.add(generic_op(operands, [packed_init], body, maps, ITERATORS))


def unpacked(build: Builder, packed: SSAValue, like: SSAValue, tile: RegisterTile) -> SSAValue:
    """The matrix of the ``m × n`` blocks ``packed``, shaped as the matrix ``like``."""
    element = like.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    dest = build.empty(like.type.get_shape(), element, build.sizes(like))  # pyright: ignore
    return build.add(UnPackOp(packed, dest, [0, 1], (tile.m, tile.n)))


def _as_matrix_product(op: Conv2DNchwFchwOp) -> None:
    """The convolution ``op`` as im2col and a ``linalg.matmul`` with the filter as a matrix."""
    data, weight, init = op.operands
    array = constant_array(weight)
    assert array is not None
    element = init.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    batch, _, *_ = data.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    filters = array.shape[0]
    build = Builder(op)
    images = [build.dim(data, 0)] if batch == DYNAMIC_INDEX else []
    columns = im2col(build, op, images)
    matrix = build.add(dense_constant(array.reshape(filters, -1), element))
    width = [build.dim(columns, 1)] if batch == DYNAMIC_INDEX else []
    empty = build.empty([filters, columns.type.get_shape()[1]], element, width)  # pyright: ignore
    zeros = build.add(fill_op(build.zero(element), empty))
    product = build.add(contraction_op(MatmulOp, [matrix, columns], [zeros], {}))
    replace_op(op, _to_nchw(build, product, init, images))


def im2col(build: Builder, op: Conv2DNchwFchwOp, images: list[SSAValue]) -> SSAValue:
    """The windows of the convolution ``op``'s data as its ``C·KH·KW × N·OH·OW`` matrix: a
    copying ``linalg.generic`` into ``[C, KH, KW, N, OH, OW]`` whose innermost loop runs along
    an output row (strides and dilations in its map), collapsed (``images``: the dynamic
    batch)."""
    data, weight, init = op.operands
    element = init.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    batch, channels, *_ = data.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    kh, kw = weight.type.get_shape()[2:]  # pyright: ignore[reportAttributeAccessIssue]
    _, _, oh, ow = init.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    (sh, sw), (dh, dw) = pair(op.strides), pair(op.dilations)
    windows = build.empty([channels, kh, kw, batch, oh, ow], element, images)
    c, i, j, n, y, x = (AffineExpr.dimension(d) for d in range(6))
    reads = AffineMap(6, 0, (n, c, y * sh + i * dh, x * sw + j * dw))
    identity = AffineMap.identity(6)
    body = Block(arg_types=[element, element])
    body.add_op(YieldOp(body.args[0]))
    maps = ArrayAttr([AffineMapAttr(reads), AffineMapAttr(identity)])
    copy = generic_op([data], [windows], body, maps, ArrayAttr([PARALLEL] * 6))
    mark_loop(copy, 0)  # its channels
    copied = build.add(copy)
    columns_type = TensorType(element, [channels * kh * kw, _product(batch, oh * ow)])
    return build.add(
        tensor.CollapseShapeOp.create(
            operands=[copied],
            result_types=[columns_type],
            properties={"reassociation": reassociation([[0, 1, 2], [3, 4, 5]])},
        )
    )


def _product(batch: int, pixels: int) -> int:
    return DYNAMIC_INDEX if batch == DYNAMIC_INDEX else batch * pixels


def _to_nchw(build: Builder, product: SSAValue, init: SSAValue, images: list[SSAValue]) -> SSAValue:
    """The ``F × N·OH·OW`` product as the ``N × F × OH × OW`` result: reshaped when ``N`` is
    1, else transposed."""
    type = init.type
    batch, filters, oh, ow = type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    element = type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    if batch == 1:
        groups, shape, sizes = [[0, 1], [2, 3]], [1, filters, oh, ow], []
    else:
        groups, shape, sizes = [[0], [1, 2, 3]], [filters, batch, oh, ow], images
    expanded = build.add(
        tensor.ExpandShapeOp(
            product, list(sizes), reassociation(groups), list(shape), TensorType(element, shape)
        )
    )
    if batch == 1:
        return expanded
    dest = build.empty(type.get_shape(), element, images)  # pyright: ignore[reportAttributeAccessIssue]
    return build.add(TransposeOp(expanded, dest, i64_array(1, 0, 2, 3), type))


def replace_op(op: Operation, result: SSAValue) -> None:
    """Replace ``op``'s result by ``result``, erase ``op`` and what only it used."""
    op.results[0].replace_all_uses_with(result)
    operands = list(op.operands)
    op.detach()
    op.erase()
    for value in operands:
        _erase_unused(value)


def _erase_unused(value: SSAValue) -> None:
    """Erase the constant, ``tensor.empty`` or ``linalg.fill`` defining ``value`` if it is
    unused, then what only it used."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp | tensor.EmptyOp | FillOp) and not value.uses:
        operands = list(owner.operands)
        owner.detach()
        owner.erase()
        for operand in operands:
            _erase_unused(operand)
