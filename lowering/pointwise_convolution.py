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
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp

from .implicit_gemm import replace_by_pixel_product
from .ops.common import reassociation
from .pack_ops import PackOp
from .prepacked_weights import Builder, constant_array, pair, zero_filled
from .tiling import RegisterTile


def pointwise_products(module: ModuleOp, tile: RegisterTile) -> None:
    """Rewrite (in place) the convolutions of ``module`` that `applies` takes as pixels ×
    filters products in blocks of ``tile``."""
    for op in [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]:
        if applies(op, tile):
            _as_pixel_product(op, tile)


MIN_CHANNELS = 128
"""The fewest input channels of a convolution taken (the layers measured had 160 to 960)."""
MAX_PIXELS = 64
"""The most output pixels of a convolution taken. Measured against `prepacked_weights`' im2col
with a bias and ReLU epilogue, in one process (`docs/benchmarks.md`): MobileNetV2's 1 × 1
layers on 7 × 7 images took 0.74–0.83× the time, those on 14 × 14 images 0.91–1.16× (whose
``F × pixels`` product pads 196 pixels to 208 columns, 49 to 64)."""


def applies(op: Conv2DNchwFchwOp, tile: RegisterTile) -> bool:
    """A convolution of one image with a constant filter of one tap, unit strides, static
    sizes, a zero-filled result, at least `MIN_CHANNELS` input channels, at most `MAX_PIXELS`
    output pixels and output rows narrower than ``tile.n`` (wider ones the direct convolution
    computes in place)."""
    data, weight, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(weight, TensorType)
    assert isinstance(out, TensorType)
    if constant_array(op.inputs[1]) is None or not zero_filled(op.outputs[0]):
        return False
    if DYNAMIC_INDEX in data.get_shape() or data.get_shape()[0] != 1:
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
