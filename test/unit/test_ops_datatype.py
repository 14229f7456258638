"""The data-type conversions in the interpreter, against NumPy expectations."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import function, run_tensor


def convert(binding: str, x: np.ndarray, x_type: str) -> np.ndarray:
    """``%r = <binding>`` on parameter ``%x``; the function's result type is the
    inferred one, so that the run checks the kernel's shape and data type."""
    return run_tensor(function(f"%x: {x_type}", f"%r = {binding}", ret=None), x)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_float_to_int_truncates_toward_zero(n: int) -> None:
    x = np.linspace(-2.75, 2.75, 4 * n, dtype=np.float32).reshape(n, 4)
    result = convert("relax.astype %x {dtype = i32}", x, "!relax.tensor<[n, 4], f32>")
    expected = [[int(v) for v in row] for row in x.tolist()]  # Python's int() truncates
    assert result.dtype == np.int32 and result.shape == (n, 4)
    np.testing.assert_array_equal(result, np.array(expected, np.int32).reshape(n, 4))


def test_float_to_bool_is_nonzero_and_nan_is_true() -> None:
    x = np.array([0.0, -0.0, 0.5, -3.0, np.nan, np.inf], np.float32)
    result = convert("relax.astype %x {dtype = bool}", x, "!relax.tensor<[6], f32>")
    assert result.dtype == np.bool_
    assert result.tolist() == [False, False, True, True, True, True]


def test_integer_conversions_wrap_and_bools_count_as_one() -> None:
    x = np.array([[127, 128, -129], [255, 256, -1]], np.int32)
    narrowed = convert("relax.astype %x {dtype = i8}", x, "!relax.tensor<[2, 3], i32>")
    assert narrowed.dtype == np.int8
    assert narrowed.tolist() == [[127, -128, 127], [-1, 0, -1]]
    unsigned = convert("relax.astype %x {dtype = ui8}", x, "!relax.tensor<ndim = 2, i32>")
    assert unsigned.tolist() == [[127, 128, 127], [255, 0, 255]]
    flags = np.array([True, False, True])
    as_float = convert("relax.astype %x {dtype = f32}", flags, "!relax.tensor<[3], bool>")
    assert as_float.dtype == np.float32 and as_float.tolist() == [1.0, 0.0, 1.0]
    as_bool = convert("relax.astype %x {dtype = bool}", x, "!relax.tensor<[2, 3], i32>")
    assert as_bool.all()


def test_float_narrowing_rounds_to_nearest_even() -> None:
    # 2049 and 2051 lie halfway between f16 neighbours (spacing 2 above 2048).
    x = np.array([2049.0, 2051.0, 1e6, -1e-9], np.float64)
    result = convert("relax.astype %x {dtype = f16}", x, "!relax.tensor<[4], f64>")
    assert result.dtype == np.float16
    assert result.tolist() == [2048.0, 2052.0, float("inf"), -0.0]


def test_scalar_and_unknown_shapes() -> None:
    scalar = convert(
        "relax.astype %x {dtype = i64}", np.array(-7.9, np.float32), "!relax.tensor<[], f32>"
    )
    assert scalar.shape == () and scalar.dtype == np.int64 and int(scalar) == -7
    x = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    result = convert("relax.astype %x {dtype = f64}", x, "!relax.tensor")
    assert result.dtype == np.float64 and result.shape == (2, 3, 4)
    np.testing.assert_array_equal(result, np.arange(24.0).reshape(2, 3, 4))


@pytest.mark.parametrize(
    ("attributes", "dtype"), [("", np.float32), (" {dtype = f16}", np.float16)]
)
def test_wrap_param_converts_like_astype(attributes: str, dtype: type) -> None:
    w = np.array([[0.5, -1.25], [3.0, 65504.0]], np.float64)
    result = convert(f"relax.wrap_param %x{attributes}", w, "!relax.tensor<[2, m], f64>")
    assert result.dtype == dtype
    assert result.tolist() == [[0.5, -1.25], [3.0, 65504.0]]
