"""Convolutions and pooling under the tiling schedule (``compile_module(tile=True)``,
``lowering/schedules/``): every layout, stride, padding, dilation and grouping compiled natively
at odd sizes and symbolic dimensions and compared with the reference interpreter, ResNet-18's
convolutions among them; and which of them the schedule rewrites (the others keep the loop
lowering, and none may crash the toolchain)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from convert_harness import flatten, generic_text, load, lower
from lower_harness import Case, assert_same, floats, inputs, tensor
from test_lower_convolution import CASES as CONVOLUTION_FAMILY
from test_lower_pooling import CASES as POOLING_FAMILY
from test_lower_pooling import pool
from toolchain_harness import AVX2, AVX512, host_tile_of, needs_toolchain

from relax_dialect.interpreter import run
from relax_xdsl.lowering.threads import openmp_library
from relax_xdsl.lowering.tiling import tiling_passes
from relax_xdsl.lowering.toolchain import (
    NativeModule,
    _transform_library,
    compile_module,
    find_toolchain,
)

pytestmark = [needs_toolchain, pytest.mark.heavy]

SIZES = (1, 3)
"""Values of the symbolic size ``n`` each case runs with."""


def conv(name: str, data: str, weight: str, attrs: str = "", op: str = "conv2d") -> Case:
    """``relax.nn.<op>`` of data and weight shapes (``n``, ``h`` symbolic: ``h`` is ``n + 6``)."""
    shapes = [
        [d if d in ("n",) else "n+6" if d == "h" else int(d) for d in s.split(", ")]
        for s in (data, weight)
    ]
    binding = f"%r = relax.nn.{op} %x, %w" + (f" {{{attrs}}}" if attrs else "")
    return Case(
        name,
        f"%x: {tensor(data, 'f32')}, %w: {tensor(weight, 'f32')}",
        binding,
        inputs(*(floats(*shape, salt=i) for i, shape in enumerate(shapes))),
    )


DIRECT = [
    conv("resnet-3x3-56", "n, 16, 56, 56", "24, 16, 3, 3", "padding = [1]"),
    conv("ragged-3x3", "n, 16, 20, 20", "16, 16, 3, 3", "padding = [1]"),
    conv("wide", "1, 3, 7, 130", "130, 3, 3, 3", "padding = [1]"),
    conv("ragged-blocks", "n, 5, 9, 17", "13, 5, 3, 3", "padding = [1]"),
    conv("few-channels-1x1", "n, 130, 3, 19", "3, 130, 1, 1"),
    conv("unpadded-7x7", "n, 3, 23, 23", "8, 3, 7, 7"),
    conv("nhwc-hwio", "n, 9, 21, 5", "3, 3, 5, 8", 'data_layout = "NHWC", kernel_layout = "HWIO"'),
    conv("rows-strided-2", "n, 5, 9, 37", "7, 5, 3, 3", "strides = [2, 1], padding = [1]"),
    conv("rows-strided-3", "n, 6, 11, 34", "9, 6, 5, 3", "strides = [3, 1]"),
]
"""Convolutions with unit column strides (rows of stride 1 to 3) and output rows of at least one
register block (16 columns): register blocks over the input in place (the ragged last blocks of
output channels and columns included; 5 and 6 channels, channel loops unrolled whole)."""

IM2COL = [
    conv("resnet-3x3", "n, 64, 14, 14", "64, 64, 3, 3", "padding = [1]"),
    conv("odd-channels", "n, 7, 17, 3", "17, 7, 3, 1", "padding = [2, 0, 1, 0]"),
    conv("resnet-stem", "n, 3, 23, 23", "8, 3, 7, 7", "strides = [2, 2], padding = [3]"),
    conv("resnet-3x3-strided", "n, 16, 17, 17", "32, 16, 3, 3", "strides = [2, 2], padding = [1]"),
    conv("resnet-1x1-strided", "n, 16, 7, 7", "32, 16, 1, 1", "strides = [2, 2]"),
    conv("asymmetric", "n, 3, 13, 9", "4, 3, 2, 3", "strides = [3, 1], padding = [0, 1, 2, 0]"),
]
"""Strided convolutions and those with narrower output rows: im2col and a tiled matrix product."""

UNIT_BLOCKS = [
    conv("one-pixel", "n, 1, 1, 1", "1, 1, 1, 1"),
    conv("one-input-channel", "n, 1, 20, 20", "8, 1, 3, 3", "padding = [1]"),
    conv("one-output-channel", "n, 4, 3, 18", "1, 4, 3, 3"),
    conv("one-channel-each", "n, 1, 3, 18", "1, 1, 3, 3"),
    conv("one-channel-1x1", "n, 1, 2, 17", "7, 1, 1, 1"),
]
"""Convolutions whose register blocks fold to fewer loops (a single input or output channel,
a single output element)."""

DEPTHWISE = [
    conv("depthwise", "n, 6, 17, 17", "6, 1, 3, 3", "groups = 6, padding = [1]"),
    conv("depthwise-mobilenet", "n, 17, 20, 20", "17, 1, 3, 3", "groups = 17, padding = [1]"),
    conv("depthwise-130", "n, 130, 7, 19", "130, 1, 3, 3", "groups = 130, padding = [1]"),
    conv("depthwise-one-column", "n, 3, 7, 1", "3, 1, 3, 1", "groups = 3, padding = [1, 0]"),
    conv("depthwise-one-row", "n, 7, 1, 9", "7, 1, 1, 3", "groups = 7"),
    conv("depthwise-two-channels", "n, 2, 3, 7", "2, 1, 3, 3", "groups = 2"),
    conv("depthwise-unpadded-5x5", "n, 3, 9, 37", "3, 1, 5, 5", "groups = 3"),
    conv(
        "depthwise-asymmetric",
        "n, 5, 11, 23",
        "5, 1, 3, 2",
        "groups = 5, padding = [2, 0, 1, 1]",
    ),
    conv(
        "depthwise-nhwc",
        "n, 13, 17, 7",
        "3, 3, 1, 7",
        'groups = 7, padding = [1], data_layout = "NHWC", kernel_layout = "HWIO"',
    ),
]
"""Depthwise convolutions with unit strides: strips of output rows and columns in vector
registers, one tap at a time (`schedules/depthwise.py`); ragged strips, a single row or column,
two or 130 channels, NHWC."""

TRANSPOSED = [
    conv("transposed", "n, 4, 5, 5", "4, 3, 3, 3", "strides = [2, 2]", "conv2d_transpose"),
    conv(
        "transposed-decoder",
        "n, 6, 9, 9",
        "6, 5, 3, 3",
        "strides = [2, 2], padding = [1], output_padding = [1]",
        "conv2d_transpose",
    ),
    conv(
        "transposed-nhwc",
        "n, 7, 3, 2",
        "2, 5, 2, 3",
        'data_layout = "NHWC", kernel_layout = "IOHW", strides = [1, 3], output_padding = [0, 1]',
        "conv2d_transpose",
    ),
    conv(
        "transposed-stride-3",
        "n, 7, 17, 17",
        "7, 5, 3, 3",
        "strides = [3, 3], padding = [1], output_padding = [2]",
        "conv2d_transpose",
    ),
    conv(
        "transposed-130-channels",
        "1, 130, 3, 7",
        "130, 3, 4, 4",
        "strides = [2, 2], padding = [1]",
        "conv2d_transpose",
    ),
    conv(
        "transposed-one-pixel", "n, 3, 1, 1", "3, 17, 3, 3", "strides = [2, 2]", "conv2d_transpose"
    ),
    conv(
        "transposed-dilated",
        "n, 4, 7, 9",
        "4, 6, 3, 3",
        "strides = [2, 3], dilation = [2, 3], padding = [2, 1], output_padding = [1, 2]",
        "conv2d_transpose",
    ),
    conv(
        "transposed-wide-phases",
        "n, 3, 5, 40",
        "3, 8, 3, 3",
        "strides = [2, 2], padding = [1], output_padding = [1]",
        "conv2d_transpose",
    ),
]
"""Transposed convolutions with one group: the ordinary stride-1 convolutions of their output
phases, interleaved; the direct schedule for phases with wide rows (40 columns), im2col for
narrow ones; strides 2 and 3, dilations sharing a factor with the stride (phases without taps),
output padding, 1, 3, 7, 17 and 130 channels."""

REWRITTEN = [*DIRECT, *IM2COL, *UNIT_BLOCKS, *DEPTHWISE, *TRANSPOSED]
"""Convolutions the schedule rewrites."""

STRIDED = "pool_size = [3], strides = [2], padding = [1]"
"""ResNet-18's max pool."""

POOLS = [
    pool("resnet-max-pool", "max_pool2d", ("n", 7, 17, 17), STRIDED),
    pool("max-pool-130-channels", "max_pool2d", ("n", 130, 9, 13), STRIDED),
    pool("max-pool-one-channel", "max_pool2d", ("n", 1, 3, 3), "pool_size = [3], padding = [1]"),
    pool("max-pool-wide", "max_pool2d", (1, 3, "n", 130), "pool_size = [1, 3], padding = [0, 1]"),
    pool(
        "max-pool-ceil",
        "max_pool2d",
        ("n", 17, 8, 8),
        "pool_size = [3], strides = [2], ceil_mode = true",
    ),
    pool(
        "max-pool-dilated",
        "max_pool2d",
        ("n", 3, 11, 13),
        "pool_size = [2, 3], strides = [1, 2], dilation = [2]",
    ),
    pool("max-pool-symbolic-height", "max_pool2d", (1, 3, "n+6", 7), STRIDED),
    pool("max-pool-nhwc", "max_pool2d", ("n", 9, 9, 17), STRIDED + ', layout = "NHWC"'),
    pool("max-pool-i32", "max_pool2d", ("n", 3, 7, 7), STRIDED, dtype="i32"),
    pool("avg-pool", "avg_pool2d", ("n", 3, 11, 11), STRIDED),
    pool(
        "avg-pool-include-pad",
        "avg_pool2d",
        ("n", 17, 7, 7),
        STRIDED + ", count_include_pad = true",
    ),
    pool("avg-pool-whole-image", "avg_pool2d", ("n", 130, 7, 7), "pool_size = [7]"),
    pool("max-pool-5x5-stride-3", "max_pool2d", ("n", 7, 17, 19), "pool_size = [5], strides = [3]"),
]
"""2-D pools with static channels and output widths: blocks of channels in vector lanes
(`schedules/pooling.py`); 1, 3, 7, 17 and 130 channels, ragged blocks of channels and columns,
strided, padded, dilated, ``ceil_mode``, a symbolic height, NHWC, integers, averages, windows
of 5 × 5 and of the whole image."""

KEPT_POOLS = [
    pool("pool-symbolic-channels", "max_pool2d", (1, "n", 5, 5), STRIDED),
    pool("pool-symbolic-width", "avg_pool2d", (1, 3, 5, "n+4"), STRIDED),
]
"""2-D pools whose blocks would not be static: their windows reordered (`sliding_windows`)."""

KEPT = [
    conv("grouped", "n, 8, 9, 9", "6, 4, 3, 3", "groups = 2, padding = [1]"),
    conv(
        "depthwise-strided",
        "n, 6, 17, 17",
        "6, 1, 3, 3",
        "groups = 6, strides = [2, 2], padding = [1]",
    ),
    conv("depthwise-dilated", "n, 3, 17, 17", "3, 1, 3, 3", "groups = 3, dilation = [2, 2]"),
    conv("depthwise-symbolic-height", "1, 3, h, 7", "3, 1, 3, 3", "groups = 3"),
    conv("symbolic-height", "1, 4, h, 7", "5, 4, 3, 3"),
    conv("dilated", "n, 3, 17, 17", "5, 3, 3, 3", "dilation = [2, 3], padding = [2, 3]"),
    conv(
        "transposed-grouped",
        "n, 4, 5, 5",
        "4, 3, 3, 3",
        "strides = [2, 2], groups = 2",
        "conv2d_transpose",
    ),
]
"""Convolutions it leaves to the loop lowering (groups; strided or dilated depthwise ones; a
symbolic size other than the batch; dilation; a grouped transposed convolution, a generic)."""

FAMILIES = [
    Case(f"family-{case.name}", case.params, case.body, case.inputs)
    for case in CONVOLUTION_FAMILY + POOLING_FAMILY
]
"""Every case of the convolution and pooling lowering tests (the schedule reorders the
pooling windows and the grouped convolutions' loops, and pads by copies)."""

CASES = {case.name: case for case in REWRITTEN + KEPT + POOLS + KEPT_POOLS + FAMILIES}


@pytest.fixture(scope="module")
def module_text() -> str:
    return generic_text(lower(load("".join(c.function(c.symbol) for c in CASES.values())), True))


@pytest.fixture(scope="module")
def native(module_text):
    return compile_module(module_text, tile=True)


def assert_matches_reference(native: NativeModule, case: Case) -> None:
    """``case`` compiled in ``native`` computes what the reference interpreter does, for every
    size of `SIZES`."""
    reference = load(case.function())
    for n in SIZES:
        args = case.inputs(n)
        got = native.call(case.symbol, [a for arg in args for a in flatten(arg)])
        want = flatten(run(reference, "main", *args))
        if case.name.startswith("family-"):  # small integers: exact whatever the summation order
            assert_same(got, want)
        else:
            [got], [want] = got, want
            assert got.shape == want.shape
            scale = max(float(np.abs(want).max(initial=0)), 1.0)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * scale)


@pytest.mark.parametrize("name", sorted(CASES))
def test_tiled_convolution_matches_reference(native, name):
    assert_matches_reference(native, CASES[name])


def test_pools_in_sixteen_lanes_match_reference():
    """The pools with the blocks of AVX-512 hosts (16 channels), compiled and run on any host."""
    text = "".join(case.function(case.symbol) for case in POOLS)
    with host_tile_of(AVX512):
        native = compile_module(generic_text(lower(load(text), True)), tile=True)
    for case in POOLS:
        assert_matches_reference(native, case)


@pytest.fixture(scope="module")
def transformed(module_text) -> str:
    """The module after the schedule sized for AVX2 hosts (before bufferization), in generic
    form."""
    with host_tile_of(AVX2):
        pipeline = ",".join(tiling_passes(_transform_library()))
    command = [
        find_toolchain().mlir_opt,
        "--mlir-print-op-generic",
        f"--pass-pipeline=builtin.module({pipeline})",
    ]
    result = subprocess.run(command, input=module_text, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def function_body(transformed: str, name: str) -> str:
    """The text of case ``name``'s function in the transformed module."""
    start = transformed.index(f'sym_name = "{CASES[name].symbol}"')
    end = transformed.find('"func.func"', start)
    return transformed[start : None if end < 0 else end]


@pytest.mark.parametrize("name", sorted(CASES))
def test_schedule_rewrites_exactly_the_supported_convolutions(transformed, name):
    body = function_body(transformed, name)
    if name in {case.name for case in REWRITTEN}:
        assert '"linalg.conv_2d' not in body
    elif name in {case.name for case in KEPT}:
        assert "vector<" not in body


@pytest.mark.parametrize("name", [*(case.name for case in DIRECT), "transposed-wide-phases"])
def test_unit_stride_convolutions_read_the_input_in_place(transformed, name):
    body = function_body(transformed, name)
    assert '"vector.fma"' in body
    assert '"linalg.transpose"' not in body  # no packing of an im2col matrix
    assert '"scf.forall"' in body  # the rows shared among the threads


WINDOWED = [
    "grouped",
    "depthwise-strided",
    "transposed-grouped",
    "family-conv2d-i8-to-i32",
    "family-max_pool2d-bool",
    *(case.name for case in KEPT_POOLS),
]
"""Cases whose window loops the schedule moves outside the output rows."""


@pytest.mark.parametrize("name", [case.name for case in DEPTHWISE])
def test_depthwise_convolutions_run_in_vector_registers(transformed, name):
    body = function_body(transformed, name)
    assert "vector.transfer_read" in body
    assert "xf32>" in body.split("vector.transfer_read", 1)[1].split("\n", 1)[0]
    assert '"scf.forall"' in body  # the channels shared among the threads


@pytest.mark.parametrize(
    "name",
    [
        *(case.name for case in POOLS),
        "family-max_pool2d-strided-padded",
        "family-avg_pool2d-include-pad",
    ],
)
def test_pools_run_in_vector_lanes(transformed, name):
    body = function_body(transformed, name)
    assert "vector.transfer_read" in body
    assert "linalg.pooling" not in body
    assert '"scf.forall"' in body  # the output rows shared among the threads


@pytest.mark.parametrize("name", WINDOWED)
def test_schedule_moves_the_windows_outside(transformed, name):
    body = function_body(transformed, name)
    assert "reduction>, #linalg.iterator_type<parallel>" in body


@pytest.mark.parametrize("name", [case.name for case in IM2COL])
def test_strided_and_narrow_convolutions_keep_im2col(transformed, name):
    body = function_body(transformed, name)
    assert '"linalg.transpose"' in body  # the im2col matrix packed


def test_threads_share_the_outer_loops_with_the_same_bits():
    """The rewritten convolutions and pools compiled with OpenMP loops: the same bits on two
    threads as on one, at odd output heights (the rows are shared between the threads)."""
    if openmp_library(find_toolchain().runtime) is None:
        pytest.skip("libomp is not installed (apt-get install libomp-22-dev)")
    cases = [*REWRITTEN, *POOLS]
    text = "".join(case.function(case.symbol) for case in cases)
    native = compile_module(generic_text(lower(load(text), True)), tile=True, parallel=True)
    for case in cases:
        args = [a for arg in case.inputs(3) for a in flatten(arg)]
        [one] = native.call(case.symbol, args, threads=1)
        [two] = native.call(case.symbol, args, threads=2)
        np.testing.assert_array_equal(two, one)
