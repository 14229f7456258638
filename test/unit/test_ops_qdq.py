"""Quantization in the interpreter, against values TVM 0.25 computes (its
legalization built for llvm) and expectations written element by element."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import apply, assert_exact

from relax_dialect.dtype import DataType
from relax_dialect.interpreter import RelaxRuntimeError

SPECIALS = np.array(
    [0.5, 1.5, 2.5, -0.5, -1.5, np.nan, np.inf, -np.inf, 300, -300, 127.5, -128.5, 2.4999],
    np.float32,
)
"""Ties, NaN, infinities and values beyond every 8-bit range."""


@pytest.mark.parametrize(
    ("out_dtype", "expected"),
    [
        # TVM 0.25: halves round to even, NaN and +inf saturate high, -inf low
        ("i8", [0, 2, 2, 0, -2, 127, 127, -128, 127, -128, 127, -128, 2]),
        ("ui8", [0, 2, 2, 0, 0, 255, 255, 0, 255, 0, 128, 0, 2]),
        ("i16", [0, 2, 2, 0, -2, 32767, 32767, -32768, 300, -300, 128, -128, 2]),
        ("ui16", [0, 2, 2, 0, 0, 65535, 65535, 0, 300, 0, 128, 0, 2]),
    ],
)
def test_quantize_rounds_half_to_even_and_saturates(out_dtype: str, expected: list[int]) -> None:
    zero_point = np.array(0, DataType.parse(out_dtype).to_numpy())  # pyright: ignore
    result = apply(
        "quantize",
        SPECIALS,
        np.array(1, np.float32),
        zero_point,
        attrs=f" {{out_dtype = {out_dtype}}}",
    )
    assert_exact(result, expected, zero_point.dtype)


def test_quantize_adds_the_zero_point_before_saturating() -> None:
    result = apply("quantize", SPECIALS, np.array(1, np.float32), np.array(3, np.int32))
    # TVM 0.25: -128.5 rounds to -128, plus 3 is -125
    assert_exact(result, [3, 5, 5, 3, 1, 127, 127, -128, 127, -128, 127, -125, 5], np.int8)


def test_quantize_f16_data_divides_in_f32_with_an_f32_scale() -> None:
    result = apply(
        "quantize",
        SPECIALS.astype(np.float16),
        np.array(0.3, np.float32),
        np.array(1, np.int8),
        attrs=" {out_dtype = i16}",
    )
    # TVM 0.25
    expected = [3, 6, 9, -1, -4, 32767, 32767, -32768, 1001, -999, 426, -427, 9]
    assert_exact(result, expected, np.int16)


@pytest.mark.parametrize("axis", [0, 1, -2])
def test_quantize_per_axis(axis: int) -> None:
    data = np.arange(-6, 6, dtype=np.float32).reshape(3, 4) * 1.25
    length = data.shape[axis]
    scale = np.linspace(0.5, 2, length, dtype=np.float32)
    zero_point = np.arange(length, dtype=np.uint8)
    result = apply(
        "quantize", data, scale, zero_point, attrs=f" {{axis = {axis}, out_dtype = ui8}}"
    )
    expected = np.empty(data.shape, np.uint8)
    for i in range(3):
        for j in range(4):
            k = (i, j)[axis]
            value = round(float(np.float32(data[i, j]) / scale[k])) + int(zero_point[k])
            expected[i, j] = min(max(value, 0), 255)
    assert_exact(result, expected)


def test_dequantize_per_tensor() -> None:
    data = np.array([-128, -1, 0, 1, 127], np.int8)
    result = apply("dequantize", data, np.array(0.1, np.float32), np.array(3, np.int8))
    # TVM 0.25: (data - 3) in i32, times 0.1 in f32
    expected = np.array([-131, -4, -3, -2, 124], np.float32) * np.float32(0.1)
    assert_exact(result, expected)


def test_dequantize_subtracts_in_tirs_common_type() -> None:
    data = np.array([0, 5, 2**31 - 1], np.int32)
    wrapped = apply("dequantize", data, np.array(1, np.float32), np.array(4_000_000_000, np.uint32))
    # TVM 0.25: i32 - ui32 is computed in ui32 and wraps
    assert_exact(wrapped, np.array([294967296, 294967301, 2442450943], np.float64), np.float32)
    halves = np.array([0, 5, 70000, 2049], np.int32)
    in_f16 = apply("dequantize", halves, np.array(1, np.float32), np.array(0.5, np.float16))
    # TVM 0.25: i32 - f16 is computed in f16 (70000 is inf there, 2049 rounds to 2048)
    assert_exact(in_f16, [-0.5, 4.5, np.inf, 2048], np.float32)


def test_dequantize_to_f16_saturates() -> None:
    data = np.array([np.nan, 1, np.inf, -np.inf, 70000], np.float32)
    result = apply(
        "dequantize",
        data,
        np.array(1, np.float16),
        np.array(1, np.uint8),
        attrs=" {out_dtype = f16}",
    )
    # TVM 0.25: NaN and +inf become 65504, -inf -65504
    assert_exact(result, [65504, 0, 65504, -65504, 65504], np.float16)


def test_dequantize_per_axis_with_symbolic_length() -> None:
    data = np.array([[1, 2], [3, 4], [5, 6]], np.int16)
    scale = np.array([0.5, 2, 4], np.float32)
    zero_point = np.array([1, -1, 0], np.int32)
    result = apply(
        "dequantize", data, scale, zero_point, dims=["[n, 2]", "[n]", "[n]"], attrs=" {axis = 0}"
    )
    assert_exact(result, [[0, 0.5], [8, 10], [20, 24]], np.float32)


def test_a_per_axis_parameter_must_be_a_vector_at_run_time() -> None:
    # TVM's inference compares only the first dimension; its legalization fails
    with pytest.raises(RelaxRuntimeError, match=r"relax\.quantize: .* neither one value"):
        apply(
            "quantize",
            np.zeros((2, 3), np.float32),
            np.ones((3, 2), np.float32),
            np.zeros((), np.int8),
        )


def test_f16_to_ui16_fails_as_tvm_fails_to_build_it() -> None:
    # TVM 0.25: "Literal value 65535 exceeds maximum of float16" when legalizing
    with pytest.raises(RelaxRuntimeError, match="TVM cannot saturate f16 values to ui16"):
        apply(
            "quantize",
            np.ones(2, np.float16),
            np.array(1, np.float16),
            np.array(0, np.uint16),
            attrs=" {out_dtype = ui16}",
        )
