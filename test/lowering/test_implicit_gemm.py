"""Convolutions with constant filters and narrow output rows as implicit GEMM
(``lowering/implicit_gemm.py``): the packed im2col operand gathered from the images, no im2col
matrix; padded, unpadded, dilated, strided, a single pixel, rectangular windows and images, one
to 130 filters, a symbolic batch of 1 to 130 images, compiled natively as the backend does
(kernels, units, the tiling schedule) and compared with the reference interpreter. The
convolutions it leaves to `prepacked_weights` (1 × 1 windows, channels not a multiple of the
block's depth, wide strided rows), to the direct schedule (wide rows) and to the parameters'
im2col are left alone, and still match the reference."""

from __future__ import annotations

import pytest
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    floats,
    inputs,
    relax_constant,
    tensor,
)
from test_prepacked_weights import SIZES, conv, kernel_modules, scheduled_remarks, weights
from toolchain_harness import AVX2, AVX512, host_tile_of, needs_toolchain
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, GenericOp

from relax_xdsl.lowering.implicit_gemm import gather_convolutions
from relax_xdsl.lowering.ops.common import REDUCTION
from relax_xdsl.lowering.pack_ops import PackOp
from relax_xdsl.lowering.schedules.read_out import READ_OUT, READ_OUT_LAST
from relax_xdsl.lowering.tiling import RegisterTile, host_tile

pytestmark = pytest.mark.heavy

GATHERED = [
    conv("gathered-3x3", "n, 32, 7, 7", (17, 32, 3, 3), "padding = [1]"),
    conv("gathered-unpadded", "n, 64, 9, 9", (3, 64, 3, 3)),
    conv("gathered-130-filters", "n, 32, 7, 7", (130, 32, 3, 3), "padding = [1]"),
    conv("gathered-one-filter", "n, 32, 13, 13", (1, 32, 3, 3), "padding = [1]"),
    conv("gathered-one-pixel", "n, 32, 1, 1", (7, 32, 3, 3), "padding = [1]"),
    conv("gathered-dilated", "n, 32, 13, 11", (5, 32, 3, 3), "dilation = [2, 3], padding = [2, 3]"),
    conv("gathered-rectangular", "n, 96, 3, 6", (7, 96, 5, 1), "padding = [2, 0]"),
    conv("gathered-strided", "n, 32, 9, 9", (7, 32, 3, 3), "strides = [2, 2], padding = [1]"),
    conv("gathered-uneven-strides", "n, 32, 13, 7", (3, 32, 3, 2), "strides = [3, 2]"),
]
"""Convolutions computed as implicit GEMMs."""


def with_epilogue(name: str, data: str, filters: int) -> Case:
    """A padded 3 × 3 convolution of data of shape ``data`` (``n`` symbolic) with ``filters``
    constant filters, followed by its layer's bias add, a residual add and a ReLU."""
    batch, channels, height, width = (int(d) if d != "n" else d for d in data.split(", "))
    result = (batch, filters, height, width)
    body = f"""{relax_constant("w", weights(filters, channels, 3, 3))}
    {relax_constant("b", weights(1, filters, 1, 1, salt=3))}
    %c = relax.nn.conv2d %x, %w {{padding = [1]}}
    %a = relax.add %c, %b
    %s = relax.add %a, %y
    %r = relax.nn.relu %s"""
    params = f"%x: {tensor(data, 'f32')}, %y: {tensor(', '.join(map(str, result)), 'f32')}"
    return Case(name, params, body, inputs(floats(batch, channels, height, width), floats(*result)))


EPILOGUES = [
    with_epilogue("gathered-epilogue-17", "n, 32, 7, 7", 17),
    with_epilogue("gathered-epilogue-130", "n, 32, 3, 5", 130),
    with_epilogue("gathered-epilogue-one", "n, 32, 1, 1", 1),
    with_epilogue("gathered-epilogue-static", "3, 32, 7, 7", 7),
]
"""Implicit GEMMs with a layer's epilogue (bias, residual, ReLU): filters not a multiple of a
panel, more than one panel, a single pixel, a static batch."""

LEFT = [
    conv("left-1x1", "n, 32, 7, 7", (130, 32, 1, 1)),
    conv("left-strided-1x1", "n, 64, 17, 17", (17, 64, 1, 1), "strides = [2, 2]"),
    conv("left-wide-strided", "n, 32, 40, 40", (5, 32, 3, 3), "strides = [2, 2], padding = [1]"),
    conv("left-odd-channels", "n, 33, 7, 7", (7, 33, 3, 3), "padding = [1]"),
    conv("left-wide-rows", "n, 32, 9, 40", (7, 32, 3, 3), "padding = [1]"),
    conv("left-parameter", "n, 32, 7, 7", (7, 32, 3, 3), "padding = [1]", parameter=True),
]
"""Convolutions left to `prepacked_weights`, the direct schedule and the parameters' im2col."""

CASES = {case.name: case for case in GATHERED + EPILOGUES + LEFT}


@pytest.mark.parametrize("name", [case.name for case in GATHERED])
def test_the_im2col_operand_is_gathered_packed(name):
    tile = host_tile()
    [kernel] = kernel_modules(CASES[name].function())
    gather_convolutions(kernel, tile)
    ops = list(kernel.walk())
    assert not any(isinstance(op, Conv2DNchwFchwOp) for op in ops)
    assert len([op for op in ops if isinstance(op, PackOp)]) == 1  # the result's, a fill
    copies = [op for op in ops if isinstance(op, GenericOp) and REDUCTION not in op.iterator_types]
    [gather] = [op for op in copies if len(op.iterator_types) == 6]
    assert gather.outputs[0].type.get_shape()[-2:] == (tile.m, tile.k)


@pytest.mark.parametrize("name", [case.name for case in EPILOGUES])
def test_the_read_out_and_its_chain_are_marked(name):
    """The read-out and the bias and residual adds before the ReLU are fused into the tiles of
    the ReLU, which `schedules.read_out` shares among the threads."""
    [kernel] = kernel_modules(CASES[name].function())
    gather_convolutions(kernel, host_tile())
    generics = [op for op in kernel.walk() if isinstance(op, GenericOp)]
    assert [READ_OUT in op.attributes for op in generics][-4:] == [True, True, True, False]
    assert [READ_OUT_LAST in op.attributes for op in generics][-4:] == [False] * 3 + [True]


@pytest.mark.parametrize("name", [case.name for case in LEFT])
def test_other_convolutions_are_left_alone(name):
    """Left alone with AVX2 hosts' blocks, which the cases are sized for (with AVX-512's, rows
    of 16 to 31 columns are gathered too)."""
    [kernel] = kernel_modules(CASES[name].function())
    before = str(kernel)
    gather_convolutions(kernel, AVX2)
    assert str(kernel) == before


def test_strided_rows_wider_than_14_columns_keep_im2col_in_avx512_blocks():
    """With AVX-512's 32-column blocks a strided convolution with rows of 20 columns is left to
    im2col (`implicit_gemm.MOST_STRIDED_WIDTH`: ResNet-18's 3 × 3 / 2 layer with rows of 28
    took 1.17× the time as an implicit GEMM); one with rows of 5 is gathered."""
    for name, gathered in [("left-wide-strided", False), ("gathered-strided", True)]:
        [kernel] = kernel_modules(CASES[name].function())
        before = str(kernel)
        gather_convolutions(kernel, AVX512)
        assert (str(kernel) != before) == gathered, name


@needs_toolchain
def test_the_schedule_tiles_the_gathered_products():
    """Each implicit GEMM's product is matched by the schedule's gathered variant (its
    remark)."""
    assert _gathered_remarks(GATHERED, host_tile()) == len(GATHERED)


@needs_toolchain
def test_the_schedule_shares_every_read_out():
    """Each implicit GEMM's read-out, with its chain or alone, is shared by panels (its
    remark)."""
    cases = [*GATHERED, *EPILOGUES]
    shared = scheduled_remarks(cases, gather_convolutions, host_tile(), "share_read_out")
    assert shared == len(cases)


def _gathered_remarks(cases: list[Case], tile: RegisterTile) -> int:
    """How many of the ``cases``' kernels, rewritten with blocks of ``tile``, the schedule
    tiles as implicit GEMMs."""
    return scheduled_remarks(cases, gather_convolutions, tile, "tile_gathered")


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
def test_implicit_gemms_in_avx512_blocks_match_the_reference():
    """The implicit GEMMs with the register tile of AVX-512 hosts (8 × 32 blocks, which also
    take rows of 16 to 31 columns: strided ones of at most 14 columns, and unit-stride ones
    with too many positions dropped for the units to flatten them), compiled and run on any
    host."""
    unflattened = conv("gathered-17x17", "n, 32, 19, 19", (19, 32, 3, 3))
    cases = [*GATHERED, unflattened]
    with host_tile_of(AVX512):
        assert _gathered_remarks(cases, AVX512) == len(cases)
        native = compiled_together(cases)
    for case in cases:
        assert_close_to_reference(native, case, SIZES)


@needs_toolchain
def test_two_threads_give_the_bits_of_one():
    """The gathers' blocks, the read-outs' panels and their chains shared among two threads
    give the bits of one thread."""
    assert_same_bits_on_two_threads([*GATHERED, *EPILOGUES], SIZES)


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_implicit_gemms_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], SIZES)
