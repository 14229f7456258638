"""Convolutions whose filters are parameters as pixels × filters products, the filter read in
its ``OIHW`` layout (``lowering/parameter_filters.py``): 3 × 3 layers on 7 × 7 and 14 × 14
images as ResNet-18's, strided, padded, dilated, rectangular and 1 × 1 ones, 1 to 130 filters
and channels, a batch norm and ReLU epilogue, one image and a symbolic batch
(one image at a time) at n = 1, 3, 7, 17, 130, compiled natively as the backend does (kernels,
units, the tiling schedule) and compared with the reference interpreter, and on two threads
against one. The convolutions it leaves alone (a constant filter, rows the direct convolution
takes, a static batch of three) still match the reference."""

from __future__ import annotations

import pytest
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    floats,
)
from test_prepacked_weights import SIZES, conv, kernel_modules, scheduled_remarks
from toolchain_harness import AVX2, AVX512, host_tile_of, needs_toolchain
from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, GenericOp
from xdsl.ir import BlockArgument

from relax_xdsl.lowering.ops.common import REDUCTION
from relax_xdsl.lowering.parameter_filters import PRODUCT_MAPS, parameter_filter_products
from relax_xdsl.lowering.tiling import RegisterTile
from relax_xdsl.lowering.toolchain import generic_text, lower_to_llvm_dialect

pytestmark = pytest.mark.heavy

PADDED = "padding = [1]"


def layer(name: str, data: str, filters: tuple[int, ...], attrs: str = PADDED) -> Case:
    """A convolution with its filter and its batch norm's four vectors as parameters, the norm
    and a ReLU after it (ResNet-18 imported with ``params_as_inputs``)."""
    base = parameter(name, data, filters, attrs)
    vector = f"!relax.tensor<[{filters[0]}], f32>"
    norm = ", ".join(f"%{v}: {vector}" for v in ("g", "b", "m", "v"))
    body = f"""{base.body.replace("%r =", "%c =")}
    %t = relax.nn.batch_norm %c, %g, %b, %m, %v {{axis = 1, training = false}}
    %o = relax.tuple_get_item %t[0]
    %r = relax.nn.relu %o"""
    vectors = [floats(filters[0], salt=s) for s in (3, 4, 5)]
    variance = floats(filters[0], salt=6)

    def arguments(n: int) -> list[object]:
        return [*base.inputs(n), *(make(n) for make in vectors), abs(variance(n)) + 0.1]

    return Case(name, f"{base.params}, {norm}", body, arguments)


def parameter(name: str, data: str, filters: tuple[int, ...], attrs: str = PADDED) -> Case:
    return conv(name, data, filters, attrs, parameter=True)


TAKEN = [
    parameter("conv-3x3-7x7-one-image", "1, 64, 7, 7", (130, 64, 3, 3)),
    parameter("conv-3x3-7x7-symbolic-batch", "n, 32, 7, 7", (17, 32, 3, 3)),
    parameter("conv-3x3-14x14-symbolic-batch", "n, 17, 14, 14", (33, 17, 3, 3)),
    parameter("conv-3x3-unpadded-one-filter", "n, 3, 9, 9", (1, 3, 3, 3), ""),
    parameter("conv-3x3-stride-2", "n, 7, 17, 17", (3, 7, 3, 3), "padding = [1], strides = [2, 2]"),
    parameter(
        "conv-3x3-stride-2-wide", "n, 5, 130, 65", (7, 5, 3, 3), "padding = [1], strides = [2]"
    ),
    parameter("conv-3x3-dilated", "n, 7, 17, 17", (5, 7, 3, 3), "padding = [2], dilation = [2]"),
    parameter("conv-5x3-rectangular", "n, 3, 11, 7", (7, 3, 5, 3), "padding = [2, 1, 2, 1]"),
    parameter("conv-1x1-7x7", "n, 130, 7, 7", (17, 130, 1, 1), ""),
    parameter("conv-1x1-14x14", "n, 32, 14, 14", (130, 32, 1, 1), ""),
    parameter("conv-1x1-one-pixel", "n, 7, 1, 1", (3, 7, 1, 1), ""),
    parameter("conv-1x1-stride-2", "n, 64, 56, 56", (3, 64, 1, 1), "strides = [2, 2]"),
    parameter("conv-3x3-padded-more", "n, 8, 7, 7", (130, 8, 3, 3), "padding = [2]"),
]
"""Convolutions computed as pixels × filters products."""

LAYERS = [
    layer("conv-3x3-7x7-batch-norm-relu", "n, 32, 7, 7", (17, 32, 3, 3)),
    layer("conv-1x1-14x14-batch-norm-relu", "1, 96, 14, 14", (130, 96, 1, 1), ""),
]
"""Convolutions with the epilogue of a batch norm and ReLU (its factors a kernel of their
own)."""

LEFT = [
    conv("left-constant", "n, 32, 7, 7", (17, 32, 3, 3), PADDED),
    parameter("left-wide-rows", "n, 8, 3, 40", (7, 8, 3, 3)),
    parameter("left-three-images", "3, 8, 7, 7", (7, 8, 3, 3)),
]
"""Convolutions left to the constant filters' rewrites, the direct schedule and im2col."""

CASES = {case.name: case for case in TAKEN + LAYERS + LEFT}


@pytest.mark.parametrize("name", [case.name for case in TAKEN + LAYERS])
def test_the_filter_is_read_in_its_layout(name):
    """The convolution is gone: one product over pixels, filters and depth whose right operand
    is the filter reshaped (its ``OIHW`` layout, no copy)."""
    [kernel] = [
        kernel
        for kernel in kernel_modules(CASES[name].function())
        if any(isinstance(op, Conv2DNchwFchwOp) for op in kernel.walk())
    ]
    parameter_filter_products(kernel, AVX2)
    ops = list(kernel.walk())
    assert not any(isinstance(op, Conv2DNchwFchwOp) for op in ops)
    [product] = [op for op in ops if isinstance(op, GenericOp) and REDUCTION in op.iterator_types]
    assert product.indexing_maps == PRODUCT_MAPS
    reshape = product.inputs[1].owner
    assert isinstance(reshape, tensor.CollapseShapeOp)
    assert isinstance(reshape.src, BlockArgument)  # the kernel's argument, as it is given


@pytest.mark.parametrize("name", [case.name for case in LEFT])
def test_other_convolutions_are_left_alone(name):
    """Left alone with AVX2 hosts' blocks, which the cases are sized for."""
    [kernel] = kernel_modules(CASES[name].function())
    before = str(kernel)
    parameter_filter_products(kernel, AVX2)
    assert str(kernel) == before


def _tiled_products(cases: list[Case], tile: RegisterTile) -> int:
    """How many of the ``cases``' kernels, rewritten with blocks of ``tile``, the schedule tiles
    as contractions without batch dimensions: packing their right operand in the k loop, or,
    with one pixel, streaming it (`schedules.matrix_vector`)."""
    actions = ("tile_0", "tile_matrix_vector")
    return sum(scheduled_remarks(cases, parameter_filter_products, tile, a) for a in actions)


@needs_toolchain
def test_the_schedule_tiles_the_pixel_products():
    """Each product is matched by the contraction schedule without batch dimensions (its
    remark), which packs the filter a cache tile at a time (one pixel's streams it)."""
    with host_tile_of(AVX2):
        assert _tiled_products(TAKEN, AVX2) >= len(TAKEN)


@needs_toolchain
@pytest.mark.parametrize("tile", [AVX2, AVX512], ids=["avx2", "avx512"])
def test_pixel_products_in_either_hosts_blocks_match_the_reference(tile):
    """The products with the register tiles of AVX2 (6 × 16) and AVX-512 (8 × 32) hosts,
    compiled and run on any host."""
    names = ("conv-3x3-7x7-symbolic-batch", "conv-1x1-7x7", "conv-3x3-stride-2")
    cases = [CASES[name] for name in names]
    with host_tile_of(tile):
        native = compiled_together(cases)
    for case in cases:
        assert_close_to_reference(native, case, (1, 3))


@needs_toolchain
def test_the_filters_transposing_pack_is_shuffles():
    """The filter's 32 × 32 blocks are transposed by shuffles in the LLVM dialect (the
    schedule's ``lower_transpose shuffle_1d``), not moved element by element (1,312 extracts
    and as many inserts for this kernel without it)."""
    [kernel] = kernel_modules(CASES["conv-3x3-7x7-one-image"].function())
    parameter_filter_products(kernel, AVX512)
    with host_tile_of(AVX512):
        llvm = lower_to_llvm_dialect(generic_text(kernel), tile=True)
    assert llvm.count("llvm.shufflevector") > 100
    assert llvm.count("llvm.extractelement") < 100


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_parameter_filters_match_the_reference(native, name):
    data = CASES[name].params.split("]")[0]
    sizes = SIZES if "[n," in data else (1,)
    assert_close_to_reference(native, CASES[name], sizes)


@needs_toolchain
def test_two_threads_give_the_bits_of_one():
    """Compiled for OpenMP threads (the packs and the product's blocks shared among them): the
    same bits on two threads as on one."""
    assert_same_bits_on_two_threads(TAKEN + LAYERS, [1, 3])
