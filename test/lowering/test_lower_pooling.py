"""Lowering of the pooling operators: reference interpreter vs the bundled interpreter
vs the MLIR toolchain, at several values of the symbolic size ``n``. Float data are
small integers divided by 4, so that sums are exact whatever the summation order."""

from __future__ import annotations

import re

from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    bools,
    inputs,
    ints,
    operators_of,
    tensor,
)

from relax_dialect.ops import pooling


def quarters(*shape: int | str):
    make = ints(*shape, dtype="float32", low=-12, high=13)
    return lambda n: make(n) / 4


def pool(name: str, op: str, shape: tuple, attrs: str = "", dtype: str = "f32") -> Case:
    """A pooling case of data ``shape`` (``"n"``-sized; ``n+k`` is ``m`` in the type)."""
    text = re.sub(r"n\+\d+", "m", ", ".join(map(str, shape)))
    if dtype == "f32":
        make = quarters(*shape)
    elif dtype == "bool":
        make = bools(*shape)
    else:
        make = ints(*shape, dtype="int32")
    binding = f"%r = relax.nn.{op} %x" + (f" {{{attrs}}}" if attrs else "")
    return Case(name, f"%x: {tensor(text, dtype)}", binding, inputs(make))


CASES = [
    pool("max_pool2d", "max_pool2d", ("n", 2, 5, 6), "pool_size = [2, 3]"),
    pool(
        "max_pool2d-strided-padded",
        "max_pool2d",
        (1, 2, "n+3", 7),
        "pool_size = [3], strides = [2], padding = [1], dilation = [1, 2]",
    ),
    pool(
        "max_pool2d-ceil",
        "max_pool2d",
        (2, 1, "n+3", 5),
        "pool_size = [2], strides = [2], padding = [1], ceil_mode = true",
    ),
    pool("max_pool2d-nhwc", "max_pool2d", ("n", 4, 4, 3), 'pool_size = [2], layout = "NHWC"'),
    pool(
        "max_pool2d-i32",
        "max_pool2d",
        ("n", 1, 4, 4),
        "pool_size = [2], strides = [2], padding = [1]",
        dtype="i32",
    ),
    pool("max_pool2d-bool", "max_pool2d", ("n", 1, 3, 4), "pool_size = [2]", dtype="bool"),
    Case(
        "max_pool2d-unknown-shape",
        "%x: !relax.tensor<ndim = 4, f32>",
        "%r = relax.nn.max_pool2d %x {pool_size = [2], strides = [2], ceil_mode = true}",
        inputs(quarters("n", 2, 5, "n+2")),
    ),
    pool(
        "avg_pool2d",
        "avg_pool2d",
        ("n", 2, 5, 5),
        "pool_size = [2, 3], strides = [1, 2], padding = [0, 1, 2, 2], dilation = [2]",
    ),
    pool(
        "avg_pool2d-include-pad",
        "avg_pool2d",
        (1, 2, "n+2", 4),
        "pool_size = [2], strides = [2], padding = [1], count_include_pad = true",
    ),
    pool(
        "avg_pool2d-ceil-i32",
        "avg_pool2d",
        ("n", 1, 5, 5),
        "pool_size = [2], strides = [2], ceil_mode = true",
        dtype="i32",
    ),
    pool(
        "avg_pool2d-nchw2c",
        "avg_pool2d",
        ("n", 2, 4, 4, 2),
        'pool_size = [2], strides = [2], layout = "NCHW2c", out_layout = "NHWC"',
    ),
    pool(
        "max_pool1d",
        "max_pool1d",
        ("n", 3, 9),
        "pool_size = [3], strides = [2], padding = [1], ceil_mode = true",
    ),
    pool(
        "avg_pool1d",
        "avg_pool1d",
        (2, "n", 9),
        "pool_size = [3], strides = [2], padding = [2, 1], dilation = [2]",
    ),
    pool(
        "avg_pool1d-exclude-pad-ceil",
        "avg_pool1d",
        (1, 2, "n+4"),
        "pool_size = [2], strides = [3], padding = [1], ceil_mode = true, "
        "count_include_pad = false",
    ),
    pool("max_pool3d", "max_pool3d", (1, "n", 3, 4, 4), "pool_size = [2], strides = [1, 2, 2]"),
    pool(
        "avg_pool3d",
        "avg_pool3d",
        (1, 1, "n+1", 3, 3),
        "pool_size = [2], padding = [1, 0, 1]",
    ),
    pool("adaptive_avg_pool2d", "adaptive_avg_pool2d", ("n", 2, 5, 7), "output_size = [2, 3]"),
    pool(
        "adaptive_avg_pool2d-symbolic-in",
        "adaptive_avg_pool2d",
        (1, 2, "n+2", 4),
        "output_size = [3]",
    ),
    pool("adaptive_avg_pool2d-default", "adaptive_avg_pool2d", ("n", 1, 3, 2)),
    pool(
        "adaptive_avg_pool2d-i32-nhwc",
        "adaptive_avg_pool2d",
        ("n", 5, 4, 2),
        'output_size = [2], layout = "NHWC"',
        dtype="i32",
    ),
    pool("adaptive_avg_pool1d", "adaptive_avg_pool1d", ("n", 2, 10), "output_size = [4]"),
    pool(
        "adaptive_avg_pool3d",
        "adaptive_avg_pool3d",
        (1, "n", 3, 4, 5),
        "output_size = [1, 2, 3]",
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(pooling.OPERATIONS, operators_of(CASES))
    assert operators_of(CASES) == {op.name for op in pooling.OPERATIONS}


def test_no_named_pooling_operation_is_emitted() -> None:
    from convert_harness import generic_text, load, lower

    text = generic_text(lower(load(FAMILY.cases["max_pool2d"].function()), pipeline=True))
    assert "pooling" not in text and '"linalg.generic"' in text
