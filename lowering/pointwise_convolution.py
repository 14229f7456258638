"""1 × 1 convolutions with constant filters as pixels × filters matrix products, the image packed
straight from its layout (the tiling schedule's kernels, `units`; before `prepacked_weights`).

A convolution of one tap with unit strides is, for an image, the product of its filter as an
``F × C`` matrix with the image as a ``C × H·W`` one (a reshape: no im2col copy). It is
computed in the implicit GEMM's orientation (`implicit_gemm`): the pixels are the rows,
broadcast ``m`` at a time, the output channels the columns, ``n`` per vector panel of the
filter, which is reordered to ``C × F`` and packed at compile time (`prepacked_weights`);
im2col's ``F × pixels`` product pads the 49 pixels of a 7 × 7 image to 64 columns. The image's
``C × H·W`` matrix is packed into ``m × k`` blocks of pixels × channels by one ``linalg.pack``
that transposes as it copies (the schedule vectorises it: ``match_prepacked_0``), and the
result is read out of its blocks into ``1 × F × H × W`` (`implicit_gemm.replace_by_pixel_product`).

A symbolic batch (an ONNX model's ``[batch, C, H, W]``) is an ``scf.for`` over its images, each
such a product inserted into the result (im2col copied the whole batch into a ``C × N·H·W``
matrix and transposed the product back into ``N × F × H × W``).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, FloatAttr, IndexType, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp
from xdsl.ir import Block, Operation

from .building import contraction_op, fill_op, insert_slice_op
from .implicit_gemm import replace_by_pixel_product
from .ops.common import reassociation
from .pack_ops import PackOp
from .prepacked_weights import Builder, constant_array, pair, replace_op, zero_filled
from .tiling import RegisterTile


def pointwise_products(module: ModuleOp, tile: RegisterTile) -> None:
    """Rewrite (in place) the convolutions of ``module`` that `applies` takes as pixels ×
    filters products in blocks of ``tile`` (of a symbolic batch: one image at a time)."""
    for op in [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]:
        if not applies(op, tile):
            continue
        batch = op.inputs[0].type.get_shape()[0]  # pyright: ignore[reportAttributeAccessIssue]
        _as_pixel_product(op if batch == 1 else one_image_at_a_time(op), tile)


MIN_CHANNELS = 128
"""The fewest input channels of a convolution taken (the layers measured had 160 to 960)."""
MAX_PIXELS = 64
"""The most output pixels of a convolution taken. Measured against `prepacked_weights`' im2col
with a bias and ReLU epilogue, in one process (`docs/benchmarks.md`): MobileNetV2's 1 × 1
layers on 7 × 7 images took 0.74–0.83× the time, those on 14 × 14 images 0.91–1.16× (whose
``F × pixels`` product pads 196 pixels to 208 columns, 49 to 64)."""


def applies(op: Conv2DNchwFchwOp, tile: RegisterTile) -> bool:
    """A convolution of one image or of a symbolic batch with a constant filter of one tap,
    unit strides, other sizes static, a zero-filled result, at least `MIN_CHANNELS` input
    channels, at most `MAX_PIXELS` output pixels and output rows narrower than ``tile.n``
    (wider ones the direct convolution computes in place)."""
    data, weight, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(weight, TensorType)
    assert isinstance(out, TensorType)
    if constant_array(op.inputs[1]) is None or not zero_filled(op.outputs[0]):
        return False
    if DYNAMIC_INDEX in data.get_shape()[1:] or data.get_shape()[0] not in (1, DYNAMIC_INDEX):
        return False
    if tuple(weight.get_shape()[2:]) != (1, 1) or pair(op.strides) != (1, 1):
        return False
    _, _, height, width = out.get_shape()
    wide = width >= tile.n or height * width > MAX_PIXELS
    return data.get_shape()[1] >= MIN_CHANNELS and not wide


def _as_pixel_product(op: Conv2DNchwFchwOp, tile: RegisterTile) -> None:
    """Replace ``op`` by its pixels × filters product with blocks of ``tile``."""
    data, weight, init = op.operands
    array = constant_array(weight)
    assert array is not None
    element = init.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    filters, channels = array.shape[:2]
    _, _, height, width = data.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    pixels = height * width
    build = Builder(op)
    image = build.add(
        tensor.CollapseShapeOp.create(
            operands=[data],
            result_types=[TensorType(element, [channels, pixels])],
            properties={"reassociation": reassociation([[0, 1], [2, 3]])},
        )
    )
    blocks = [-(-pixels // tile.m), -(-channels // tile.k), tile.m, tile.k]
    dest = build.empty(blocks, element, [])
    packed_image = build.add(
        PackOp(image, dest, build.zero(element), [1, 0], [tile.m, tile.k], outer_order=[1, 0])
    )
    matrix = array.reshape(filters, channels).T
    replace_by_pixel_product(op, build, packed_image, matrix, pixels, [], tile)


def one_image_at_a_time(op: Conv2DNchwFchwOp) -> Conv2DNchwFchwOp:
    """Replace ``op`` (a symbolic batch) by an ``scf.for`` over its images, each the
    convolution of one image inserted into the result; that convolution."""
    data, weight, init = op.operands
    result = init.type
    assert isinstance(result, TensorType)
    _, filters, height, width = result.get_shape()
    _, *image_shape = data.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    element = result.get_element_type()
    build = Builder(op)
    images = build.dim(data, 0)
    empty = build.empty(result.get_shape(), element, [images])
    start, step = build.index(0), build.index(1)
    body = Block(arg_types=[IndexType(), result])
    image, into = body.args
    one = [1, *image_shape]
    read = tensor.ExtractSliceOp(data, [image, 0, 0, 0], one, [1] * 4, TensorType(element, one))
    out = [1, filters, height, width]
    zero = arith.ConstantOp(FloatAttr(0.0, element))
    zeros = fill_op(zero.result, tensor.EmptyOp([], TensorType(element, out)).results[0])
    convolution = contraction_op(
        Conv2DNchwFchwOp,
        [read.results[0], weight],
        [zeros.results[0]],
        {"strides": op.strides, "dilations": op.dilations},
    )
    written = insert_slice_op(convolution.results[0], into, [image, 0, 0, 0], out, [1] * 4)
    empty_op = zeros.outputs[0].owner
    assert isinstance(empty_op, Operation)
    body.add_ops([read, zero, empty_op, zeros, convolution, written, scf.YieldOp(written)])
    replace_op(op, build.add(scf.ForOp(start, images, step, [empty], body)))
    return convolution
