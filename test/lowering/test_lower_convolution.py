"""Lowering of the convolutions: reference interpreter vs the bundled interpreter vs
the MLIR toolchain, at several values of the symbolic size ``n``. The data are small
integers (as floats too), so that every sum is exact whatever the summation order."""

from __future__ import annotations

import re

import pytest
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    inputs,
    ints,
    lowered_main,
    lowering_error,
    operators_of,
    tensor,
)

from relax_dialect.ops import convolution
from relax_xdsl.lowering.interpreter import LoweredCheckError


def conv(name: str, op: str, data: str, weight: str, attrs: str, shapes, dtype: str = "f32"):
    """A convolution case; ``shapes`` are the data's and the weight's (with ``"n"``);
    in the types, a size ``n+k`` is a second symbolic variable ``m``."""
    extra = {"dtype": "int8" if dtype == "i8" else "float32", "low": -3, "high": 4}
    data, weight = (re.sub(r"n\+\d+", "m", shape) for shape in (data, weight))
    params = f"%x: {tensor(data, dtype)}, %w: {tensor(weight, dtype)}"
    binding = f"%r = relax.nn.{op} %x, %w" + (f" {{{attrs}}}" if attrs else "")
    makers = [ints(*shapes[0], **extra), ints(*shapes[1], salt=5, **extra)]
    return Case(name, params, binding, inputs(*makers))


CASES = [
    conv("conv2d", "conv2d", "n, 3, 5, 6", "4, 3, 3, 3", "", [("n", 3, 5, 6), (4, 3, 3, 3)]),
    conv(
        "conv2d-strided-padded",
        "conv2d",
        "1, 2, n+4, 7",
        "3, 2, 3, 2",
        "strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2]",
        [(1, 2, "n+4", 7), (3, 2, 3, 2)],
    ),
    conv(
        "conv2d-groups",
        "conv2d",
        "n, 4, 5, 5",
        "6, 2, 3, 3",
        "groups = 2, padding = [1]",
        [("n", 4, 5, 5), (6, 2, 3, 3)],
    ),
    conv(
        "conv2d-depthwise",
        "conv2d",
        "2, 3, n+2, 4",
        "3, 1, 2, 2",
        "groups = 3, strides = [2]",
        [(2, 3, "n+2", 4), (3, 1, 2, 2)],
    ),
    conv(
        "conv2d-nhwc-hwio",
        "conv2d",
        "n, 5, 4, 3",
        "3, 3, 3, 2",
        'data_layout = "NHWC", kernel_layout = "HWIO"',
        [("n", 5, 4, 3), (3, 3, 3, 2)],
    ),
    conv(
        "conv2d-nhwc-to-nchw",
        "conv2d",
        "2, n+2, 4, 3",
        "2, 3, 2, 2",
        'data_layout = "NHWC", out_layout = "NCHW"',
        [(2, "n+2", 4, 3), (2, 3, 2, 2)],
    ),
    conv(
        "conv2d-split-layouts",
        "conv2d",
        "n, 2, 4, 4, 2",
        "3, 4, 2, 2",
        'data_layout = "NCHW2c", out_layout = "NCHW2c"',
        [("n", 2, 4, 4, 2), (3, 4, 2, 2)],
    ),
    conv(
        "conv2d-symbolic-kernel",
        "conv2d",
        "1, 2, n+3, 4",
        "2, 2, n, 2",
        "",
        [(1, 2, "n+3", 4), (2, 2, "n", 2)],
    ),
    conv(
        "conv2d-i8-to-i32",
        "conv2d",
        "n, 2, 4, 4",
        "2, 2, 2, 2",
        "out_dtype = i32",
        [("n", 2, 4, 4), (2, 2, 2, 2)],
        dtype="i8",
    ),
    conv(
        "conv2d-negative-padding",
        "conv2d",
        "n, 1, 6, 6",
        "1, 1, 2, 2",
        "padding = [-1, 0, 0, 1]",
        [("n", 1, 6, 6), (1, 1, 2, 2)],
    ),
    Case(
        "conv2d-unknown-shapes",
        "%x: !relax.tensor<ndim = 4, f32>, %w: !relax.tensor<ndim = 4, f32>",
        "%r = relax.nn.conv2d %x, %w {strides = [2], padding = [1], groups = 2}",
        inputs(
            ints("n", 4, "n+3", 5, dtype="float32", low=-3, high=4),
            ints(2, 2, 3, 2, dtype="float32", low=-3, high=4, salt=5),
        ),
    ),
    conv("conv1d", "conv1d", "n, 2, 7", "3, 2, 3", "padding = [1, 2]", [("n", 2, 7), (3, 2, 3)]),
    conv(
        "conv1d-nwc-strided",
        "conv1d",
        "2, n+5, 4",
        "2, 2, 3",
        'data_layout = "NWC", kernel_layout = "OIW", strides = [2], dilation = [2], groups = 2',
        [(2, "n+5", 4), (2, 2, 3)],
    ),
    conv(
        "conv3d",
        "conv3d",
        "1, 2, n+1, 3, 4",
        "2, 2, 2, 2, 2",
        "padding = [1, 0, 0]",
        [(1, 2, "n+1", 3, 4), (2, 2, 2, 2, 2)],
    ),
    conv(
        "conv1d_transpose",
        "conv1d_transpose",
        "n, 2, 4",
        "2, 3, 3",
        "",
        [("n", 2, 4), (2, 3, 3)],
    ),
    conv(
        "conv1d_transpose-strided",
        "conv1d_transpose",
        "1, 4, n",
        "4, 1, 3",
        "strides = [2], padding = [1, 2], output_padding = [1], dilation = [2], groups = 2",
        [(1, 4, "n"), (4, 1, 3)],
    ),
    conv(
        "conv2d_transpose",
        "conv2d_transpose",
        "n, 2, 3, 3",
        "2, 3, 2, 3",
        "strides = [2, 1], padding = [1, 0]",
        [("n", 2, 3, 3), (2, 3, 2, 3)],
    ),
    conv(
        "conv2d_transpose-nhwc",
        "conv2d_transpose",
        "1, n, 3, 2",
        "2, 2, 2, 2",
        'data_layout = "NHWC", kernel_layout = "IOHW", strides = [2], output_padding = [1, 0]',
        [(1, "n", 3, 2), (2, 2, 2, 2)],
    ),
    conv(
        "conv2d_transpose-stride-3-dilated",
        "conv2d_transpose",
        "n, 3, 5, 4",
        "3, 2, 3, 4",
        "strides = [3, 2], padding = [2, 1, 0, 3], output_padding = [2, 1], dilation = [2, 1]",
        [("n", 3, 5, 4), (3, 2, 3, 4)],
    ),
    conv(
        "conv2d_transpose-empty-phases",
        "conv2d_transpose",
        "n, 6, 4, 3",
        "6, 2, 3, 2",
        "strides = [2, 2], dilation = [2, 1], padding = [1], groups = 3",
        [("n", 6, 4, 3), (6, 2, 3, 2)],
    ),
    conv(
        "conv1d_transpose-kernel-1-stride-3",
        "conv1d_transpose",
        "n, 2, 5",
        "2, 3, 1",
        "strides = [3], padding = [2, 0]",
        [("n", 2, 5), (2, 3, 1)],
    ),
    conv(
        "conv2d_transpose-symbolic-height",
        "conv2d_transpose",
        "1, 2, n+3, 3",
        "2, 2, 3, 3",
        "strides = [2, 3], padding = [3, 1], output_padding = [1, 0]",
        [(1, 2, "n+3", 3), (2, 2, 3, 3)],
    ),
    conv(
        "conv3d_transpose",
        "conv3d_transpose",
        "1, 2, n, 2, 2",
        "2, 1, 2, 2, 1",
        "strides = [1, 2, 1], padding = [0, 1, 0]",
        [(1, 2, "n", 2, 2), (2, 1, 2, 2, 1)],
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(convolution.OPERATIONS, operators_of(CASES))
    assert operators_of(CASES) == {op.name for op in convolution.OPERATIONS}


def test_named_convolutions_for_2d_floats() -> None:
    from convert_harness import generic_text, load, lower

    def text(name: str) -> str:
        return generic_text(lower(load(FAMILY.cases[name].function()), pipeline=True))

    assert '"linalg.conv_2d_nchw_fchw"' in text("conv2d")
    assert '"linalg.conv_2d_ngchw_gfchw"' in text("conv2d-groups")
    assert '"linalg.conv_2d_nchw_fchw"' in text("conv2d_transpose")
    for name in ("conv2d-i8-to-i32", "conv1d", "conv1d_transpose"):
        assert "conv_2d" not in text(name)


def test_transposed_convolution_with_a_symbolic_kernel_is_a_located_error() -> None:
    message = lowering_error(
        f"relax.function @main(%x: {tensor('1, 2, 4', 'f32')}, %w: {tensor('2, 2, k', 'f32')}) "
        "{\n  %r = relax.nn.conv1d_transpose %x, %w\n  relax.return %r\n}\n"
    )
    assert message.startswith("test.mlir:2:")
    assert "relax.nn.conv1d_transpose: a transposed convolution needs static kernel sizes" in (
        message
    )


def test_channel_mismatch_fails_at_run_time() -> None:
    import numpy as np

    text = (
        f"relax.function @main(%x: {tensor('1, c, 4', 'f32')}, %w: {tensor('2, 2, 3', 'f32')}) "
        "{\n  %r = relax.nn.conv1d %x, %w\n  relax.return %r\n}\n"
    )
    main = lowered_main(text)
    args = [np.ones((1, 3, 4), np.float32), np.ones((2, 2, 3), np.float32)]
    with pytest.raises(LoweredCheckError, match=r"test\.mlir:2:.*data channels"):
        main(args)
