"""Convolutions whose filters are parameters as pixels × filters products, the filter read in
its own layout (the tiling schedule's kernels, `units`; after `pointwise_convolution`,
`flat_rows` and `implicit_gemm`, before `prepacked_weights`, which take constant filters).

With a model's weights as its function's parameters (ONNX ``params_as_inputs``) a filter is
packed on every call. Through the schedule's im2col (`schedules/convolution`) the filter is
the left operand of an ``F × pixels`` product, packed whole into ``m × k`` blocks before it:
read, written packed and read back, three passes over megabytes (9.4 MB for ResNet-18's
512-channel 3 × 3 layers), and a 7 × 7 image's 49 pixels padded to 64 columns. Here the
product is turned around as the implicit GEMM's is (`implicit_gemm`), one image at a time (a
symbolic batch an ``scf.for`` over its images, `pointwise_convolution.one_image_at_a_time`):

* the left operand is the image's windows as a ``C·KH·KW × OH·OW`` matrix read transposed:
  the im2col copy (`prepacked_weights.im2col`), or for one tap of unit strides the image
  itself (a reshape, no copy); the schedule packs it into ``m × k`` blocks of pixels;
* the right operand is the filter as it is given, ``OIHW`` reshaped into an ``F × C·KH·KW``
  matrix and read transposed, which the contraction schedule packs into ``k × n`` blocks a
  cache tile at a time inside its k loop (`tiling`: no batch dimension), where the
  micro-kernel reads it back from L2: the filter crosses memory once, as a constant's does;
* the ``F × OH·OW`` result is the image's ``NCHW`` output (a reshape).
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    Float32Type,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp
from xdsl.ir.affine import AffineExpr, AffineMap

from .building import fill_op, generic_op
from .ops.common import PARALLEL, REDUCTION, collapse_op, reassociation
from .pointwise_convolution import one_image_at_a_time
from .prepacked_weights import Builder, constant_array, im2col, pair, replace_op, zero_filled
from .schedules import direct_convolution
from .tiling import RegisterTile


def parameter_filter_products(module: ModuleOp, tile: RegisterTile) -> None:
    """Rewrite (in place) the convolutions of ``module`` that `applies` takes as pixels ×
    filters products reading the filter in its layout (of a symbolic batch: one image at a
    time)."""
    for op in [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]:
        if applies(op, tile):
            batch = op.inputs[0].type.get_shape()[0]  # pyright: ignore[reportAttributeAccessIssue]
            _as_pixel_product(op if batch == 1 else one_image_at_a_time(op))


def applies(op: Conv2DNchwFchwOp, tile: RegisterTile) -> bool:
    """An ``f32`` convolution of one image or of a symbolic batch whose filter is not a
    constant, other sizes static, a zero-filled result, that the direct convolution does not
    compute (its strides or dilations are not 1, or its output rows are narrower than
    ``tile.n``)."""
    data, weight, out = (v.type for v in op.operands)
    assert isinstance(data, TensorType) and isinstance(weight, TensorType)
    assert isinstance(out, TensorType)
    if constant_array(op.inputs[1]) is not None or not zero_filled(op.outputs[0]):
        return False
    if not all(isinstance(t.get_element_type(), Float32Type) for t in (data, weight, out)):
        return False
    if DYNAMIC_INDEX in (*data.get_shape()[1:], *weight.get_shape(), *out.get_shape()[1:]):
        return False
    if data.get_shape()[0] not in (1, DYNAMIC_INDEX):
        return False
    strides, dilations = pair(op.strides), pair(op.dilations)
    return not direct_convolution.computes(strides, dilations, out.get_shape()[3], tile.n)


PIXELS, FILTERS, DEPTH = (AffineExpr.dimension(d) for d in range(3))
PRODUCT_MAPS = ArrayAttr(
    [
        AffineMapAttr(AffineMap(3, 0, exprs))
        for exprs in ((DEPTH, PIXELS), (FILTERS, DEPTH), (FILTERS, PIXELS))
    ]
)
"""The product's operands over its loops ``pixels, filters, depth``: the windows' matrix and
the filter's, both read transposed, and the ``F × pixels`` result."""


def _as_pixel_product(op: Conv2DNchwFchwOp) -> None:
    """Replace ``op`` (one image) by its pixels × filters product."""
    data, weight, init = op.operands
    element = init.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    filters, _, kh, kw = weight.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    _, _, oh, ow = init.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    build = Builder(op)
    if (kh, kw) == (1, 1) and pair(op.strides) == (1, 1):
        windows = build.add(collapse_op(data, [[0, 1], [2, 3]]))
    else:
        windows = im2col(build, op, [])
    matrix = build.add(collapse_op(weight, [[0], [1, 2, 3]]))
    zeros = build.add(fill_op(build.zero(element), build.empty([filters, oh * ow], element, [])))
    body = op.body.detach_block(0)
    iterators = ArrayAttr([PARALLEL, PARALLEL, REDUCTION])
    product = build.add(generic_op([windows, matrix], [zeros], body, PRODUCT_MAPS, iterators))
    shape = [1, filters, oh, ow]
    nchw = tensor.ExpandShapeOp(
        product, [], reassociation([[0, 1], [2, 3]]), shape, TensorType(element, shape)
    )
    replace_op(op, build.add(nchw))
