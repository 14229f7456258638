"""1 × 1 convolutions with constant filters as pixels × filters products, the image packed straight
from its layout (``lowering/pointwise_convolution.py``): 128 to 960 input channels, one to 130
filters, a single pixel, rectangular and padded images of at most 64 pixels, a dilation (a no-op
on one tap), a bias and ReLU epilogue, a symbolic batch (one image at a time), compiled natively as the backend does (kernels, units,
the tiling schedule) and compared with the reference interpreter. The convolutions it leaves to
the other rewrites (a larger static batch, strides, fewer channels, more pixels, rows as
wide as a register block, a filter as a parameter, a 3 × 3 window) are left alone, and still
match the reference."""

from __future__ import annotations

import pytest
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    floats,
    inputs,
)
from test_prepacked_weights import (
    SIZES,
    conv,
    kernel_modules,
    relax_constant,
    scheduled_remarks,
    weights,
)
from toolchain_harness import AVX2, AVX512, host_tile_of, needs_toolchain
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, GenericOp

from relax_xdsl.lowering.ops.common import REDUCTION
from relax_xdsl.lowering.pack_ops import PackOp
from relax_xdsl.lowering.pointwise_convolution import pointwise_products
from relax_xdsl.lowering.tiling import RegisterTile, host_tile

pytestmark = pytest.mark.heavy

EPILOGUE = Case(
    "pointwise-bias-relu",
    "%x: !relax.tensor<[1, 160, 7, 7], f32>",
    f"""{relax_constant("w", weights(17, 160, 1, 1))}
    {relax_constant("b", weights(1, 17, 1, 1, salt=3))}
    %c = relax.nn.conv2d %x, %w
    %a = relax.add %c, %b
    %r = relax.nn.relu %a""",
    inputs(floats(1, 160, 7, 7)),
)
"""A layer with its folded batch norm's bias and its activation."""
SYMBOLIC_EPILOGUE = Case(
    "pointwise-symbolic-batch-bias-relu",
    "%x: !relax.tensor<[n, 160, 7, 7], f32>",
    EPILOGUE.body,
    inputs(floats("n", 160, 7, 7)),
)
"""The same layer on a symbolic batch (an ONNX model's): one image at a time."""

TAKEN = [
    conv("pointwise-130-filters", "1, 130, 7, 7", (130, 130, 1, 1)),
    conv("pointwise-one-filter", "1, 128, 3, 3", (1, 128, 1, 1)),
    conv("pointwise-one-pixel", "1, 131, 1, 1", (17, 131, 1, 1)),
    conv("pointwise-rectangular", "1, 256, 13, 3", (7, 256, 1, 1)),
    conv("pointwise-padded", "1, 128, 7, 5", (3, 128, 1, 1), "padding = [1]"),
    conv("pointwise-dilated", "1, 129, 7, 9", (5, 129, 1, 1), "dilation = [2, 2]"),
    conv("pointwise-deep", "1, 960, 7, 7", (33, 960, 1, 1)),
    conv("pointwise-symbolic-batch", "n, 128, 7, 7", (17, 128, 1, 1)),
    conv("pointwise-symbolic-batch-130-filters", "n, 131, 3, 5", (130, 131, 1, 1)),
    EPILOGUE,
    SYMBOLIC_EPILOGUE,
]
"""Convolutions computed as pixels × filters products."""

LEFT = [
    conv("left-symbolic-batch-wide-rows", "n, 128, 3, 16", (7, 128, 1, 1)),
    conv("left-three-images", "3, 128, 7, 7", (17, 128, 1, 1)),
    conv("left-strided", "1, 128, 13, 13", (7, 128, 1, 1), "strides = [2, 2]"),
    conv("left-few-channels", "1, 127, 7, 7", (7, 127, 1, 1)),
    conv("left-wide-rows", "1, 128, 3, 16", (7, 128, 1, 1)),
    conv("left-many-pixels", "1, 128, 13, 5", (7, 128, 1, 1)),
    conv("left-parameter", "1, 128, 7, 7", (7, 128, 1, 1), parameter=True),
    conv("left-3x3", "1, 128, 7, 7", (7, 128, 3, 3), "padding = [1]"),
]
"""Convolutions left to `implicit_gemm`, `prepacked_weights`, the direct schedule and the
parameters' im2col."""

CASES = {case.name: case for case in TAKEN + LEFT}


@pytest.mark.parametrize("name", [case.name for case in TAKEN])
def test_the_image_is_packed_without_an_im2col_copy(name):
    """The convolution is gone: one product, whose left operand is the image packed (no
    im2col copy), and the result's pack (a fill)."""
    tile = host_tile()
    [kernel] = kernel_modules(CASES[name].function())
    pointwise_products(kernel, tile)
    ops = list(kernel.walk())
    assert not any(isinstance(op, Conv2DNchwFchwOp) for op in ops)
    [image, _] = [op for op in ops if isinstance(op, PackOp)]
    assert image.result.type.get_shape()[-2:] == (tile.m, tile.k)
    [product] = [op for op in ops if isinstance(op, GenericOp) and REDUCTION in op.iterator_types]
    assert product.inputs[0] == image.result


@pytest.mark.parametrize("name", [case.name for case in LEFT])
def test_other_convolutions_are_left_alone(name):
    """Left alone with AVX2 hosts' blocks, which the cases are sized for."""
    [kernel] = kernel_modules(CASES[name].function())
    before = str(kernel)
    pointwise_products(kernel, AVX2)
    assert str(kernel) == before


@needs_toolchain
def test_the_schedule_tiles_the_pixel_products():
    """Each product is matched by the schedule's pre-packed variant (its remark)."""
    assert _prepacked_remarks(TAKEN, host_tile()) == len(TAKEN)


def _prepacked_remarks(cases: list[Case], tile: RegisterTile) -> int:
    """How many of the ``cases``' kernels, rewritten with blocks of ``tile``, the schedule
    tiles as pre-packed products."""
    return scheduled_remarks(cases, pointwise_products, tile, "tile_prepacked")


@needs_toolchain
def test_pixel_products_in_avx512_blocks_match_the_reference():
    """The products with the register tile of AVX-512 hosts (8 × 32 blocks), compiled and run
    on any host."""
    cases = [CASES[name] for name in ("pointwise-130-filters", "pointwise-padded")] + [EPILOGUE]
    with host_tile_of(AVX512):
        assert _prepacked_remarks(cases, AVX512) == len(cases)
        native = compiled_together(cases)
    for case in cases:
        assert_close_to_reference(native, case, [1])


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_pointwise_convolutions_match_the_reference(native, name):
    sizes = SIZES if "symbolic" in name else (1,)
    assert_close_to_reference(native, CASES[name], sizes)


@needs_toolchain
def test_two_threads_give_the_bits_of_one():
    """Compiled for OpenMP threads (the image's pack and the product's blocks shared among
    them): the same bits on two threads as on one."""
    assert_same_bits_on_two_threads(TAKEN, [1, 3])
