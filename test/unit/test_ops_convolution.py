"""The convolutions in the interpreter, against a direct (loop) NumPy definition."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from operator_harness import function
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block

from relax_dialect.analysis.effects import is_pure
from relax_dialect.interpreter import RelaxRuntimeError, run
from relax_dialect.ops.convolution import Conv2DOp, Conv2DTransposeOp
from relax_dialect.types import TensorType


def module(signature: str, op: str, attributes: str = "") -> ModuleOp:
    """``@main(signature)`` returning ``op %x, %w {attributes}``."""
    attrs = f" {{{attributes}}}" if attributes else ""
    return function(signature, f"%y = {op} %x, %w{attrs}")


def random(*shape: int, dtype: str = "float32") -> np.ndarray:
    rng = np.random.default_rng(sum(shape) * 7 + len(shape))
    if dtype.startswith("int"):
        return rng.integers(-8, 8, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# --- reference definitions (canonical layouts, float64 or exact integers) -------------


def conv_reference(
    x: np.ndarray,
    w: np.ndarray,
    strides: tuple[int, ...],
    before: tuple[int, ...],
    after: tuple[int, ...],
    dilation: tuple[int, ...],
    groups: int = 1,
) -> np.ndarray:
    """out[n, o, p] = sum over c in o's group and taps t of xpad[n, c, p * s + t * d] * w[o, c, t]."""
    n, _, *sizes = x.shape
    o, i, *kernel = w.shape
    acc = np.int64 if x.dtype.kind == "i" else np.float64
    xp = np.pad(x.astype(acc), [(0, 0), (0, 0), *zip(before, after, strict=True)])
    counts = [
        (s + b + a - d * (k - 1) - 1) // st + 1
        for s, b, a, d, k, st in zip(sizes, before, after, dilation, kernel, strides, strict=True)
    ]
    out = np.zeros((n, o, *counts), acc)
    per_group = o // groups
    for oc, position in itertools.product(range(o), itertools.product(*map(range, counts))):
        channels = slice(oc // per_group * i, oc // per_group * i + i)
        for tap in itertools.product(*map(range, kernel)):
            index = tuple(
                p * st + t * d for p, st, t, d in zip(position, strides, tap, dilation, strict=True)
            )
            out[(slice(None), oc, *position)] += xp[(slice(None), channels, *index)] @ w[
                (oc, slice(None), *tap)
            ].astype(acc)
    return out


def transposed_reference(
    x: np.ndarray,
    w: np.ndarray,
    strides: tuple[int, ...],
    before: tuple[int, ...],
    after: tuple[int, ...],
    output_padding: tuple[int, ...],
    dilation: tuple[int, ...],
    groups: int = 1,
) -> np.ndarray:
    """Input element x[n, c, q] adds x * w[c, o, t] at output position q * s + t * d - before."""
    n, c, *sizes = x.shape
    _, o, *kernel = w.shape
    out_sizes = [
        (s - 1) * st - b - a + d * (k - 1) + e + 1
        for s, st, b, a, d, k, e in zip(
            sizes, strides, before, after, dilation, kernel, output_padding, strict=True
        )
    ]
    out = np.zeros((n, o * groups, *out_sizes))
    per_group = c // groups
    for ic, q in itertools.product(range(c), itertools.product(*map(range, sizes))):
        group = ic // per_group
        for tap in itertools.product(*map(range, kernel)):
            p = [
                qq * st + t * d - b
                for qq, st, t, d, b in zip(q, strides, tap, dilation, before, strict=True)
            ]
            if all(0 <= pp < size for pp, size in zip(p, out_sizes, strict=True)):
                contribution = np.outer(x[(slice(None), ic, *q)], w[(ic, slice(None), *tap)])
                out[(slice(None), slice(group * o, group * o + o), *p)] += contribution
    return out


# --- direct convolutions -------------------------------------------------------------

CONV2D_CASES = [
    # strides, padding attribute, (befores, afters), dilation, groups
    ((1, 1), "[0]", ((0, 0), (0, 0)), (1, 1), 1),
    ((2, 1), "[1, 2, 0, 1]", ((1, 2), (0, 1)), (1, 2), 2),
    ((3, 2), "[2, 1]", ((2, 1), (2, 1)), (2, 1), 4),
]


@pytest.mark.parametrize(("strides", "padding", "pads", "dilation", "groups"), CONV2D_CASES)
@pytest.mark.parametrize(("n", "h", "w"), [(1, 7, 6), (2, 9, 11)])
def test_conv2d(strides, padding, pads, dilation, groups, n: int, h: int, w: int) -> None:
    sig = "%x: !relax.tensor<[n, 8, h, w], f32>, %w: !relax.tensor<[4, {i}, 3, 2], f32>"
    attrs = (
        f"strides = [{strides[0]}, {strides[1]}], padding = {padding}, "
        f"dilation = [{dilation[0]}, {dilation[1]}], groups = {groups}"
    )
    program = module(sig.format(i=8 // groups), "relax.nn.conv2d", attrs)
    x, weight = random(n, 8, h, w), random(4, 8 // groups, 3, 2)
    got = run(program, "main", x, weight)
    expected = conv_reference(x, weight, strides, *pads, dilation, groups)
    assert got.dtype == np.float32  # pyright: ignore[reportAttributeAccessIssue]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


@pytest.mark.parametrize("w", [5, 8])
def test_conv1d_and_conv3d(w: int) -> None:
    program = module(
        "%x: !relax.tensor<[2, 6, w], f32>, %w: !relax.tensor<[6, 2, 3], f32>",
        "relax.nn.conv1d",
        "strides = [2], padding = [2, 1], dilation = [2], groups = 3",
    )
    x, weight = random(2, 6, w), random(6, 2, 3)
    expected = conv_reference(x, weight, (2,), (2,), (1,), (2,), 3)
    np.testing.assert_allclose(run(program, "main", x, weight), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore
    program = module(
        "%x: !relax.tensor<[1, 2, 4, 5, w], f32>, %w: !relax.tensor<[3, 2, 2, 3, 2], f32>",
        "relax.nn.conv3d",
        "strides = [1, 2, 1], padding = [1, 0, 1]",
    )
    x, weight = random(1, 2, 4, 5, w), random(3, 2, 2, 3, 2)
    expected = conv_reference(x, weight, (1, 2, 1), (1, 0, 1), (1, 0, 1), (1, 1, 1))
    np.testing.assert_allclose(run(program, "main", x, weight), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


def test_layouts() -> None:
    """NHWC data, HWIO weight, NCHW result; then split channels (NCHW4c), whose
    6 output channels are padded with zeros to 2 blocks of 4."""
    x, weight = random(2, 6, 5, 8), random(3, 2, 8, 6)
    expected = conv_reference(
        x.transpose(0, 3, 1, 2), weight.transpose(3, 2, 0, 1), (1, 1), (0, 0), (0, 0), (1, 1)
    )
    program = module(
        "%x: !relax.tensor<[n, h, w, 8], f32>, %w: !relax.tensor<[3, 2, 8, 6], f32>",
        "relax.nn.conv2d",
        'data_layout = "NHWC", kernel_layout = "HWIO", out_layout = "NCHW"',
    )
    np.testing.assert_allclose(run(program, "main", x, weight), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore
    packed = x.transpose(0, 3, 1, 2).reshape(2, 2, 4, 6, 5).transpose(0, 1, 3, 4, 2)
    program = module(
        "%x: !relax.tensor<[n, 2, h, w, 4], f32>, %w: !relax.tensor<[3, 2, 8, 6], f32>",
        "relax.nn.conv2d",
        'data_layout = "NCHW4c", kernel_layout = "HWIO"',
    )
    got = run(program, "main", packed, weight)
    padded = np.concatenate([expected, np.zeros((2, 2, 4, 4))], axis=1)
    unpacked = got.transpose(0, 1, 4, 2, 3).reshape(2, 8, 4, 4)  # pyright: ignore
    np.testing.assert_allclose(unpacked, padded, rtol=1e-5, atol=1e-5)


def test_integer_and_half_data_types() -> None:
    x, weight = random(1, 3, 5, 5, dtype="int8"), random(4, 3, 3, 3, dtype="int8")
    program = module(
        "%x: !relax.tensor<[1, 3, 5, 5], i8>, %w: !relax.tensor<[4, 3, 3, 3], i8>",
        "relax.nn.conv2d",
        "padding = [1], out_dtype = i32",
    )
    got = run(program, "main", x, weight)
    assert got.dtype == np.int32  # pyright: ignore[reportAttributeAccessIssue]
    expected = conv_reference(x, weight, (1, 1), (1, 1), (1, 1), (1, 1))
    np.testing.assert_array_equal(got, expected)  # pyright: ignore
    program = module(
        "%x: !relax.tensor<[1, 3, 5, 5], f16>, %w: !relax.tensor<[4, 3, 3, 3], f16>",
        "relax.nn.conv2d",
    )
    x, weight = random(1, 3, 5, 5, dtype="float16"), random(4, 3, 3, 3, dtype="float16")
    got = run(program, "main", x, weight)
    assert got.dtype == np.float16  # pyright: ignore[reportAttributeAccessIssue]
    expected = conv_reference(x, weight, (1, 1), (0, 0), (0, 0), (1, 1))
    np.testing.assert_allclose(got, expected, rtol=2e-2, atol=2e-2)  # pyright: ignore


def test_empty_output_and_negative_padding() -> None:
    program = module(
        "%x: !relax.tensor<[1, 2, h, 4], f32>, %w: !relax.tensor<[3, 2, 3, 3], f32>",
        "relax.nn.conv2d",
        "padding = [-1, 0, 0, 0]",
    )
    assert run(program, "main", random(1, 2, 3, 4), random(3, 2, 3, 3)).shape == (1, 3, 0, 2)  # pyright: ignore
    x, weight = random(1, 2, 6, 4), random(3, 2, 3, 3)
    expected = conv_reference(x[:, :, 1:], weight, (1, 1), (0, 0), (0, 0), (1, 1))
    np.testing.assert_allclose(run(program, "main", x, weight), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


def test_channel_mismatch_at_run_time() -> None:
    program = module(
        "%x: !relax.tensor<[1, c, 5, 5], f32>, %w: !relax.tensor<[4, 3, 3, 3], f32>",
        "relax.nn.conv2d",
    )
    with pytest.raises(RelaxRuntimeError, match="the data has 5 channels"):
        run(program, "main", random(1, 5, 5, 5), random(4, 3, 3, 3))


# --- transposed convolutions ---------------------------------------------------------


@pytest.mark.parametrize(
    ("strides", "pads", "output_padding", "dilation", "groups"),
    [
        ((1, 1), ((0, 0), (0, 0)), (0, 0), (1, 1), 1),
        ((2, 3), ((1, 0), (2, 1)), (1, 2), (1, 1), 2),
        ((2, 2), ((3, 1), (0, 2)), (1, 0), (2, 1), 1),
    ],
)
@pytest.mark.parametrize(("h", "w"), [(4, 3), (5, 6)])
def test_conv2d_transpose(strides, pads, output_padding, dilation, groups, h: int, w: int) -> None:
    before, after = zip(*pads, strict=True)
    attrs = (
        f"strides = [{strides[0]}, {strides[1]}], padding = [{before[0]}, {before[1]}, "
        f"{after[0]}, {after[1]}], output_padding = [{output_padding[0]}, {output_padding[1]}], "
        f"dilation = [{dilation[0]}, {dilation[1]}], groups = {groups}"
    )
    program = module(
        "%x: !relax.tensor<[n, 4, h, w], f32>, %w: !relax.tensor<[4, 3, 3, 2], f32>",
        "relax.nn.conv2d_transpose",
        attrs,
    )
    x, weight = random(2, 4, h, w), random(4, 3, 3, 2)
    expected = transposed_reference(
        x, weight, strides, before, after, output_padding, dilation, groups
    )
    np.testing.assert_allclose(run(program, "main", x, weight), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


def test_conv1d_and_conv3d_transpose() -> None:
    program = module(
        "%x: !relax.tensor<[2, 4, l], f32>, %w: !relax.tensor<[4, 3, 3], f32>",
        "relax.nn.conv1d_transpose",
        "strides = [3], padding = [1, 2], output_padding = [2], dilation = [2]",
    )
    x, weight = random(2, 4, 5), random(4, 3, 3)
    expected = transposed_reference(x, weight, (3,), (1,), (2,), (2,), (2,))
    np.testing.assert_allclose(run(program, "main", x, weight), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore
    program = module(
        "%x: !relax.tensor<[1, 2, 3, 3, 2], f32>, %w: !relax.tensor<[2, 2, 3, 2, 3], f32>",
        "relax.nn.conv3d_transpose",
        'strides = [2, 1, 2], padding = [1], output_padding = [1, 0, 1], data_layout = "NCDHW"',
    )
    x, weight = random(1, 2, 3, 3, 2), random(2, 2, 3, 2, 3)
    expected = transposed_reference(x, weight, (2, 1, 2), (1,) * 3, (1,) * 3, (1, 0, 1), (1,) * 3)
    np.testing.assert_allclose(run(program, "main", x, weight), expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


def test_transposed_layouts() -> None:
    """NHWC data with an HWOI weight: the transposes of the NCHW / IOHW case."""
    x, weight = random(1, 4, 5, 4), random(3, 2, 6, 4)
    program = module(
        "%x: !relax.tensor<[1, h, w, 4], f32>, %w: !relax.tensor<[3, 2, 6, 4], f32>",
        "relax.nn.conv2d_transpose",
        'strides = [2], data_layout = "NHWC", kernel_layout = "HWOI"',
    )
    expected = transposed_reference(
        x.transpose(0, 3, 1, 2),
        weight.transpose(3, 2, 0, 1),
        (2, 2),
        (0, 0),
        (0, 0),
        (0, 0),
        (1, 1),
    )
    np.testing.assert_allclose(
        run(program, "main", x, weight),
        expected.transpose(0, 2, 3, 1),
        rtol=1e-5,
        atol=1e-5,  # pyright: ignore
    )


# --- building --------------------------------------------------------------------------


def test_build_infers_the_result_type() -> None:
    block = Block(arg_types=[TensorType([1, 4, 9, 9], "f32"), TensorType([4, 2, 3, 3], "f32")])
    x, weight = block.args
    op = Conv2DOp.build([x, weight], strides=(2,), padding=(1,), groups=2)
    assert op.result_type == TensorType([1, 4, 5, 5], "f32") and is_pure(op)
    op = Conv2DTransposeOp.build([x, weight], strides=(2,), output_padding=(1,), groups=2)
    assert op.result_type == TensorType([1, 4, 20, 20], "f32")
