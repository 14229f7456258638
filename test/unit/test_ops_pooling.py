"""The pooling operators in the interpreter, against a window-by-window NumPy definition."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from operator_harness import function
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.interpreter import run


def module(data_type: str, op: str, attributes: str = "") -> ModuleOp:
    attrs = f" {{{attributes}}}" if attributes else ""
    return function(f"%x: {data_type}", f"%y = {op} %x{attrs}")


def random(*shape: int, dtype: str = "float32") -> np.ndarray:
    rng = np.random.default_rng(sum(shape) * 5 + len(shape))
    if dtype.startswith("int"):
        return rng.integers(-20, 20, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def window_count(size: int, k: int, s: int, d: int, b: int, a: int, ceil_mode: bool) -> int:
    """TVM's output size: floor (or ceil) division, minus a last window starting in the padding."""
    span = size + b + a - d * (k - 1) - 1
    count = (span + (s - 1 if ceil_mode else 0)) // s + 1
    return count - 1 if ceil_mode and (count - 1) * s >= size + b else count


def pool_reference(
    x: np.ndarray,
    kind: str,
    pool: tuple[int, ...],
    strides: tuple[int, ...],
    dilation: tuple[int, ...],
    before: tuple[int, ...],
    after: tuple[int, ...],
    ceil_mode: bool = False,
    count_include_pad: bool = False,
) -> np.ndarray:
    """Each window's taps p * s - before + t * d: the maximum of those in the
    data (the lowest value if any falls in the padding), or their average over
    the taps in the data, or over those in the data and its padding."""
    sizes = x.shape[2:]
    counts = [
        window_count(*args, ceil_mode)
        for args in zip(sizes, pool, strides, dilation, before, after, strict=True)
    ]
    out = np.zeros((*x.shape[:2], *counts), x.dtype)
    for position in itertools.product(*map(range, counts)):
        taps = [
            [p * s - b + t * d for t in range(k)]
            for p, s, b, k, d in zip(position, strides, before, pool, dilation, strict=True)
        ]
        inside = [
            [i for i in axis if 0 <= i < size] for axis, size in zip(taps, sizes, strict=True)
        ]
        values = x[(slice(None), slice(None), *np.ix_(*inside))].reshape(*x.shape[:2], -1)
        if kind == "max":
            padded = any(len(i) < len(t) for i, t in zip(inside, taps, strict=True))
            lowest = np.finfo(x.dtype).min if x.dtype.kind == "f" else np.iinfo(x.dtype).min
            result = values.max(axis=-1, initial=lowest) if padded else values.max(axis=-1)
        else:
            if count_include_pad:
                extents = [sizes[i] + after[i] for i in range(len(sizes))]
                kept = [[i for i in axis if i < e] for axis, e in zip(taps, extents, strict=True)]
                divisor = math.prod(len(k) for k in kept)
            else:
                divisor = max(math.prod(len(i) for i in inside), 1)
            total = values.astype(np.float64).sum(axis=-1)
            result = total / divisor if x.dtype.kind == "f" else np.trunc(total / divisor)
        out[(slice(None), slice(None), *position)] = result
    return out


POOL_CASES = [
    # attributes, pool, strides, dilation, (befores, afters), ceil_mode, count_include_pad
    ("pool_size = [2], strides = [2]", (2, 2), (2, 2), (1, 1), ((0, 0), (0, 0)), False, False),
    (
        "pool_size = [3], strides = [2], padding = [1], count_include_pad = true",
        (3, 3), (2, 2), (1, 1), ((1, 1), (1, 1)), False, True,
    ),
    (
        "pool_size = [2, 3], strides = [3, 2], padding = [1, 0, 2, 1], ceil_mode = true",
        (2, 3), (3, 2), (1, 1), ((1, 0), (2, 1)), True, False,
    ),
    (
        "pool_size = [2, 3], strides = [3, 2], padding = [1, 0, 2, 1], ceil_mode = true, "
        "count_include_pad = true",
        (2, 3), (3, 2), (1, 1), ((1, 0), (2, 1)), True, True,
    ),
    (
        "pool_size = [3], dilation = [2], padding = [2]",
        (3, 3), (1, 1), (2, 2), ((2, 2), (2, 2)), False, False,
    ),
    ("pool_size = [3], padding = [3]", (3, 3), (1, 1), (1, 1), ((3, 3), (3, 3)), False, False),
]  # fmt: skip


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize(
    ("attributes", "pool", "strides", "dilation", "pads", "ceil_mode", "include"), POOL_CASES
)
@pytest.mark.parametrize(("h", "w"), [(7, 8), (4, 5)])
def test_pool2d(kind, attributes, pool, strides, dilation, pads, ceil_mode, include, h, w) -> None:
    program = module("!relax.tensor<[n, 3, h, w], f32>", f"relax.nn.{kind}_pool2d", attributes)
    x = random(2, 3, h, w)
    expected = pool_reference(x, kind, pool, strides, dilation, *pads, ceil_mode, include)
    got = run(program, "main", x)
    assert got.dtype == np.float32  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)  # pyright: ignore


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize("w", [9, 10])
def test_pool1d_and_pool3d(kind: str, w: int) -> None:
    program = module(
        "!relax.tensor<[2, 3, w], f32>",
        f"relax.nn.{kind}_pool1d",
        "pool_size = [3], strides = [2], padding = [2, 1], ceil_mode = true",
    )
    x = random(2, 3, w)
    # TVM's Python API defaults count_include_pad to true for 1-D and 3-D average pooling
    expected = pool_reference(x, kind, (3,), (2,), (1,), (2,), (1,), True, True)
    np.testing.assert_allclose(run(program, "main", x), expected, rtol=1e-5, atol=1e-6)  # pyright: ignore
    program = module(
        "!relax.tensor<[1, 2, 3, 5, w], f32>",
        f"relax.nn.{kind}_pool3d",
        "pool_size = [2], strides = [1, 2, 2], padding = [0, 1, 1]",
    )
    x = random(1, 2, 3, 5, w)
    expected = pool_reference(
        x, kind, (2,) * 3, (1, 2, 2), (1,) * 3, (0, 1, 1), (0, 1, 1), False, True
    )
    np.testing.assert_allclose(run(program, "main", x), expected, rtol=1e-5, atol=1e-6)  # pyright: ignore


def test_layouts() -> None:
    x = random(1, 6, 5, 8)
    expected = pool_reference(
        x.transpose(0, 3, 1, 2), "max", (2, 2), (2, 2), (1, 1), (0, 0), (0, 0)
    )
    program = module(
        "!relax.tensor<[1, h, w, 8], f32>",
        "relax.nn.max_pool2d",
        'pool_size = [2], strides = [2], layout = "NHWC", out_layout = "NCHW"',
    )
    np.testing.assert_allclose(run(program, "main", x), expected)  # pyright: ignore
    packed = x.transpose(0, 3, 1, 2).reshape(1, 2, 4, 6, 5).transpose(0, 1, 3, 4, 2)
    program = module(
        "!relax.tensor<[1, 2, h, w, 4], f32>",
        "relax.nn.max_pool2d",
        'pool_size = [2], strides = [2], layout = "NCHW4c", out_layout = "NHWC"',
    )
    np.testing.assert_allclose(run(program, "main", packed), expected.transpose(0, 2, 3, 1))  # pyright: ignore


def test_integer_and_half_data_types() -> None:
    """Integer averages round toward zero; the padding of a maximum is the lowest value."""
    x = random(2, 3, 7, 8, dtype="int32")
    for kind in ("max", "avg"):
        program = module(
            "!relax.tensor<[2, 3, 7, 8], i32>",
            f"relax.nn.{kind}_pool2d",
            "pool_size = [3], strides = [2], padding = [1]",
        )
        got = run(program, "main", x)
        assert got.dtype == np.int32  # pyright: ignore[reportAttributeAccessIssue]
        expected = pool_reference(x, kind, (3, 3), (2, 2), (1, 1), (1, 1), (1, 1))
        np.testing.assert_array_equal(got, expected)  # pyright: ignore
    x = -np.ones((1, 1, 2, 2), np.float16) * 7
    program = module(
        "!relax.tensor<[1, 1, 2, 2], f16>", "relax.nn.max_pool2d", "pool_size = [2], padding = [2]"
    )
    got = run(program, "main", x)
    assert got.dtype == np.float16  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(got[0, 0, 0], [-65504, -65504, -65504, -65504, -65504])  # pyright: ignore
    np.testing.assert_array_equal(got[0, 0, 2], [-65504, -7, -7, -7, -65504])  # pyright: ignore


def test_nan_propagates_through_maximum() -> None:
    x = np.zeros((1, 1, 4), np.float32)
    x[0, 0, 1] = np.nan
    program = module("!relax.tensor<[1, 1, 4], f32>", "relax.nn.max_pool1d", "pool_size = [2]")
    np.testing.assert_array_equal(run(program, "main", x), [[[np.nan, np.nan, 0]]])  # pyright: ignore


# --- adaptive pooling --------------------------------------------------------------------


def adaptive_reference(x: np.ndarray, sizes: tuple[int, ...]) -> np.ndarray:
    """Window i of `out` over `in` elements: [floor(i * in / out), ceil((i + 1) * in / out))."""
    out = np.zeros((*x.shape[:2], *sizes), x.dtype)
    for position in itertools.product(*map(range, sizes)):
        window = tuple(
            slice(i * n // o, -(-(i + 1) * n // o))
            for i, n, o in zip(position, x.shape[2:], sizes, strict=True)
        )
        mean = x[(slice(None), slice(None), *window)].astype(np.float64)
        total, count = mean.sum(axis=tuple(range(2, x.ndim))), mean[0, 0].size
        value = total / count if x.dtype.kind == "f" else np.trunc(total / count)
        out[(slice(None), slice(None), *position)] = value
    return out


@pytest.mark.parametrize(("h", "w"), [(7, 8), (3, 2), (12, 5)])
@pytest.mark.parametrize("output_size", [(3, 4), (2,), (1,), None])
def test_adaptive_avg_pool2d(h: int, w: int, output_size: tuple[int, ...] | None) -> None:
    attributes = "" if output_size is None else f"output_size = {list(output_size)}"
    program = module("!relax.tensor<[n, c, h, w], f32>", "relax.nn.adaptive_avg_pool2d", attributes)
    x = random(2, 3, h, w)
    sizes = (h, w) if output_size is None else output_size * (3 - len(output_size))
    got = run(program, "main", x)
    np.testing.assert_allclose(got, adaptive_reference(x, sizes), rtol=1e-5, atol=1e-6)  # pyright: ignore


def test_adaptive_1d_3d_layouts_and_integers() -> None:
    x = random(2, 3, 10)
    program = module(
        "!relax.tensor<[2, 3, w], f32>", "relax.nn.adaptive_avg_pool1d", "output_size = [4]"
    )
    np.testing.assert_allclose(run(program, "main", x), adaptive_reference(x, (4,)), rtol=1e-5)  # pyright: ignore
    x = random(1, 5, 7, 3, 2)
    program = module(
        "!relax.tensor<[1, d, h, w, 2], f32>",
        "relax.nn.adaptive_avg_pool3d",
        'output_size = [2, 3, 1], layout = "NDHWC"',
    )
    expected = adaptive_reference(x.transpose(0, 4, 1, 2, 3), (2, 3, 1)).transpose(0, 2, 3, 4, 1)
    np.testing.assert_allclose(run(program, "main", x), expected, rtol=1e-5)  # pyright: ignore
    x = random(1, 2, 7, 5, dtype="int32")
    program = module(
        "!relax.tensor<[1, 2, 7, 5], i32>", "relax.nn.adaptive_avg_pool2d", "output_size = [3, 2]"
    )
    got = run(program, "main", x)
    assert got.dtype == np.int32  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_array_equal(got, adaptive_reference(x, (3, 2)))  # pyright: ignore
