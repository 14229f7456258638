"""Convolutions over their flattened rows (``lowering/flat_rows.py``): rows whose last register
block is ragged (28, 29, 30, 45 columns in blocks of 16), and 1 × 1 convolutions with rows
narrower than a block (one to 130 channels and filters, one pixel to 14 × 14, padded, a
parameter, a bias and ReLU), computed as one long row; padded, unpadded and asymmetrically
padded, one to 130 filters, one to 17 channels, one to seven rows, filters as constants or
parameters, NHWC, with an epilogue, a symbolic batch or two images,
compiled natively as the backend does (kernels, units, the tiling schedule) and compared with
the reference interpreter, and with the same bits on two threads as on one. The convolutions it
leaves to the direct schedule's rows (ragged blocks of half a block or less, whole blocks), to
im2col (strides, dilations; a strided one may be flattened once split into phases) and to the
implicit GEMM (narrow rows) are left alone, and still match the reference; a 1 × 1 convolution
the pixels × filters product takes (`pointwise_convolution`) keeps it. Rows narrower than a
block whose outputs are most of the positions computed (ResNet-18's 28 × 28 and 14 × 14 layers
with AVX-512's 32-column blocks) are flattened too, before the implicit GEMM can take them, and
match the reference in those blocks on any host."""

from __future__ import annotations

import pytest
from convert_harness import load
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    relax_constant,
)
from test_prepacked_weights import conv, kernel_modules, scheduled_remarks, weights
from toolchain_harness import needs_toolchain
from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, GenericOp

from relax_xdsl.lowering import toolchain, units
from relax_xdsl.lowering.flat_rows import flatten_rows
from relax_xdsl.lowering.in_place_epilogues import epilogues_in_place
from relax_xdsl.lowering.kernels import outline_kernels
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.schedules.direct_convolution import FLAT_ROWS
from relax_xdsl.lowering.tiling import RegisterTile, schedule
from relax_xdsl.lowering.units import split_units

AVX2 = RegisterTile.for_registers(32, 16)
"""The register tile the cases are sized for (6 × 16 blocks)."""

AVX512 = RegisterTile.for_registers(64, 32)
"""The register tile of AVX-512 hosts (the direct schedule's blocks 14 × 32)."""

SIZES = (1, 3)
"""Values of the symbolic batch ``n``."""


def with_relu(case: Case) -> Case:
    """``case`` followed by a ReLU (an epilogue of its kernel)."""
    body = case.body.replace("%r = ", "%c = ") + "\n%r = relax.nn.relu %c"
    return Case(f"{case.name}-relu", case.params, body, case.inputs)


def with_bias_and_relu(case: Case, filters: int) -> Case:
    """``case`` (of ``filters`` filters) followed by a bias add and a ReLU: a chain its
    kernel writes in place (`in_place_epilogues`, a symbolic batch)."""
    bias = relax_constant("b", weights(1, filters, 1, 1, salt=3))
    body = case.body.replace("%r = ", "%c = ") + f"\n{bias}\n%a = relax.add %c, %b"
    return Case(
        f"{case.name}-bias-relu", case.params, body + "\n%r = relax.nn.relu %a", case.inputs
    )


FLAT = [
    conv("flat-28x28", "n, 3, 28, 28", (7, 3, 3, 3), "padding = [1]"),
    conv("flat-130-filters", "n, 1, 3, 29", (130, 1, 3, 3), "padding = [1]"),
    with_relu(conv("flat-17-channels", "n, 17, 7, 45", (17, 17, 3, 3), "padding = [1]")),
    conv("flat-asymmetric", "n, 3, 7, 30", (5, 3, 3, 2), "padding = [2, 0, 1, 1]"),
    conv("flat-unpadded", "n, 3, 5, 30", (7, 3, 3, 3)),
    conv("flat-one-row", "n, 2, 1, 30", (3, 2, 1, 3), "padding = [0, 1]"),
    conv("flat-parameter", "n, 3, 7, 28", (7, 3, 3, 3), "padding = [1]", parameter=True),
    conv("flat-two-images", "2, 3, 3, 29", (5, 3, 3, 3), "padding = [1]"),
    with_bias_and_relu(conv("flat-chain", "n, 5, 7, 28", (7, 5, 3, 3), "padding = [1]"), 7),
]
"""Convolutions computed over their flattened rows, one kernel each."""

POINTWISE = [
    conv("flat-1x1-130-filters", "n, 17, 7, 7", (130, 17, 1, 1)),
    conv("flat-1x1-one-pixel", "n, 3, 1, 1", (5, 3, 1, 1)),
    conv("flat-1x1-one-filter", "n, 7, 3, 13", (1, 7, 1, 1)),
    conv("flat-1x1-padded", "n, 3, 5, 7", (4, 3, 1, 1), "padding = [1]"),
    conv("flat-1x1-parameter", "n, 16, 14, 14", (24, 16, 1, 1), parameter=True),
    conv("flat-1x1-two-images", "2, 3, 3, 5", (5, 3, 1, 1)),
    conv("flat-1x1-130-channels", "n, 130, 3, 3", (3, 130, 1, 1), parameter=True),
    with_bias_and_relu(conv("flat-1x1-chain", "n, 24, 14, 14", (144, 24, 1, 1)), 144),
]
"""1 × 1 convolutions with rows narrower than a block: the image one row of ``H·W``
positions (MobileNetV2's layers on 28², 14² and 7² images)."""

NHWC = conv(
    "flat-nhwc",
    "n, 5, 28, 3",
    (3, 3, 3, 4),
    'padding = [1], data_layout = "NHWC", kernel_layout = "HWIO"',
)
"""A convolution over flattened rows between the kernels of its layouts' transposes."""

LEFT = [
    conv("left-56", "n, 3, 5, 56", (4, 3, 3, 3), "padding = [1]"),
    conv("left-whole-blocks", "n, 3, 4, 32", (4, 3, 3, 3), "padding = [1]"),
    conv("left-narrow", "n, 3, 4, 7", (4, 3, 3, 3), "padding = [1]"),
    conv("left-dilated", "n, 3, 9, 28", (4, 3, 3, 3), "dilation = [1, 2], padding = [1, 2]"),
    conv("left-strided", "n, 3, 9, 57", (4, 3, 3, 3), "strides = [2, 2], padding = [1]"),
    conv("left-1x1", "n, 3, 2, 28", (5, 3, 1, 1)),
    conv("left-1x1-strided", "n, 3, 9, 9", (4, 3, 1, 1), "strides = [2, 2]"),
]
"""Convolutions left to the direct schedule's rows, im2col and the implicit GEMM."""

PIXEL_PRODUCT = conv("pointwise-pixel-product", "n, 128, 7, 7", (17, 128, 1, 1))
"""A 1 × 1 convolution that `pointwise_convolution` takes first (its pixels × filters
product)."""

CASES = {case.name: case for case in [*FLAT, *POINTWISE, NHWC, *LEFT, PIXEL_PRODUCT]}

NARROW = [
    conv("narrow-28x28", "n, 32, 28, 28", (19, 32, 3, 3), "padding = [1]"),
    conv("narrow-14x14", "n, 32, 14, 14", (19, 32, 3, 3), "padding = [1]"),
    with_bias_and_relu(conv("narrow-chain", "n, 3, 5, 17", (130, 3, 3, 3), "padding = [1]"), 130),
]
"""Rows narrower than an AVX-512 block flattened in its blocks: 32 channels and a constant
filter (what the implicit GEMM takes), and 130 filters with a chain."""


@pytest.mark.parametrize("name", [case.name for case in [*FLAT, *POINTWISE]])
def test_the_rows_are_flattened(name):
    [kernel] = kernel_modules(CASES[name].function())
    flatten_rows(kernel, AVX2)
    ops = list(kernel.walk())
    assert not any(isinstance(op, Conv2DNchwFchwOp) for op in ops)
    [flat] = [op for op in ops if isinstance(op, GenericOp) and FLAT_ROWS in op.attributes]
    assert flat.outputs[0].type.get_shape()[-1] == AVX2.n


def test_an_epilogue_in_place_is_written_afresh_out_of_the_rows():
    """The first step of a chain written in place reads the rows' view and writes a fresh
    tensor; the rest of the chain is written into it, not into the view (which the kernel
    would copy out of element by element when it returns)."""
    [kernel] = kernel_modules(CASES["flat-chain-bias-relu"].function())
    epilogues_in_place(kernel)
    flatten_rows(kernel, AVX2)
    generics = [op for op in kernel.walk() if isinstance(op, GenericOp)]
    bias, relu = generics[-2:]
    assert isinstance(bias.outputs[0].owner, tensor.EmptyOp)
    assert isinstance(bias.inputs[-1].owner, tensor.ExtractSliceOp)
    assert list(relu.outputs) == list(bias.results)


def test_pixel_products_are_taken_before_flat_rows():
    """The kernel units rewrite a 1 × 1 convolution that both take as a pixels × filters
    product, not over flattened rows."""
    module = lower(load(PIXEL_PRODUCT.function()))
    outline_kernels(module)
    _, kernel = split_units(module, True)
    assert '"linalg.pack"' in kernel.text and FLAT_ROWS not in kernel.text


@pytest.mark.parametrize("name", [case.name for case in LEFT])
def test_other_convolutions_are_left_alone(name):
    [kernel] = kernel_modules(CASES[name].function())
    before = str(kernel)
    flatten_rows(kernel, AVX2)
    assert str(kernel) == before


@pytest.mark.parametrize("name", [case.name for case in NARROW])
def test_rows_narrower_than_an_avx512_block_are_flattened(name):
    [kernel] = kernel_modules({case.name: case for case in NARROW}[name].function())
    flatten_rows(kernel, AVX512)
    [flat] = [
        op for op in kernel.walk() if isinstance(op, GenericOp) and FLAT_ROWS in op.attributes
    ]
    assert flat.outputs[0].type.get_shape()[-1] == AVX512.n


def test_rows_mostly_dropped_are_left_alone_with_avx512_blocks():
    """Seven columns of nine (ResNet-18's 7 × 7 layers): 28 outputs of 64 positions."""
    [kernel] = kernel_modules(CASES["left-narrow"].function())
    before = str(kernel)
    flatten_rows(kernel, AVX512)
    assert str(kernel) == before


@pytest.mark.parametrize("name", ["narrow-28x28", "narrow-14x14"])
def test_the_units_flatten_rows_before_the_implicit_gemm_takes_them(monkeypatch, name):
    """A constant filter's convolution whose rows both take with AVX-512 blocks is
    flattened."""
    monkeypatch.setattr(units, "host_tile", lambda: AVX512)
    module = lower(load({case.name: case for case in NARROW}[name].function()))
    outline_kernels(module)
    [kernel] = units.split_units(module, True)[1:]
    assert FLAT_ROWS in kernel.text


@pytest.fixture
def avx512(monkeypatch):
    """The AVX-512 host's register tile in the units and the schedule, on any host."""
    monkeypatch.setattr(toolchain, "transform_script", lambda: schedule(AVX512))
    monkeypatch.setattr(units, "host_tile", lambda: AVX512)


@needs_toolchain
def test_flat_rows_in_avx512_blocks_match_the_reference(avx512):
    cases = [*NARROW, *FLAT]
    native = compiled_together(cases)
    for case in cases:
        assert_close_to_reference(native, case, SIZES)


@needs_toolchain
def test_flat_rows_in_avx512_blocks_give_the_same_bits_on_two_threads(avx512):
    assert_same_bits_on_two_threads(NARROW, SIZES)


@needs_toolchain
def test_the_schedule_blocks_the_flattened_rows(monkeypatch):
    """Each convolution over flattened rows is register-blocked by the direct schedule (its
    remark)."""
    monkeypatch.setattr(toolchain, "transform_script", lambda: schedule(AVX2))
    remarks = scheduled_remarks([*FLAT, *POINTWISE], flatten_rows, AVX2, "direct_convolution")
    assert remarks == len(FLAT) + len(POINTWISE)


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_flat_rows_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], SIZES)


@needs_toolchain
def test_flat_rows_give_the_same_bits_on_two_threads():
    assert_same_bits_on_two_threads([*FLAT, *POINTWISE, NHWC], SIZES)
