"""The element-wise unary operators in the interpreter, against NumPy and against
values computed by TVM 0.25 on CPU (``relax.build`` with the LLVM target)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from operator_harness import apply, function, load, run_strictly

from relax_dialect.interpreter import RelaxRuntimeError, run
from relax_dialect.ops import unary as ops
from relax_dialect.values import PrimValue


def test_every_operator_is_listed() -> None:
    assert len(ops.OPERATIONS) == 32


# --- float operators against NumPy, for several symbolic sizes ------------------------


def in_domain(op: str, x: np.ndarray) -> np.ndarray:
    """Standard normal samples moved into the operator's domain."""
    if op in ("acos", "asin", "atanh"):
        return np.tanh(x) * 0.99
    if op == "acosh":
        return 1 + np.abs(x)
    if op in ("log", "sqrt", "rsqrt"):
        return np.abs(x) + 0.01
    return x


FLOAT_EXPECTED: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "acos": lambda x: np.pi / 2 - np.arcsin(x),
    "acosh": lambda x: np.log(x + np.sqrt(x * x - 1)),
    "asin": np.arcsin,
    "asinh": lambda x: np.log(x + np.sqrt(x * x + 1)),
    "atan": np.arctan,
    "atanh": lambda x: 0.5 * np.log((1 + x) / (1 - x)),
    "cos": np.cos,
    "cosh": lambda x: (np.exp(x) + np.exp(-x)) / 2,
    "erf": lambda x: np.array([math.erf(v) for v in x.ravel().tolist()]).reshape(x.shape),
    "exp": np.exp,
    "log": np.log,
    "rsqrt": lambda x: x**-0.5,
    "sigmoid": lambda x: 0.5 * (1 + np.tanh(x / 2)),
    "sin": np.sin,
    "sinh": lambda x: (np.exp(x) - np.exp(-x)) / 2,
    "sqrt": np.sqrt,
    "tan": lambda x: np.sin(x) / np.cos(x),
    "tanh": np.tanh,
}


@pytest.mark.parametrize("op", sorted(FLOAT_EXPECTED))
@pytest.mark.parametrize(("n", "dtype"), [(0, "float32"), (1, "float64"), (5, "float32")])
def test_float_operators(op: str, n: int, dtype: str) -> None:
    sample = np.random.default_rng(n).standard_normal((n, 3))
    x = in_domain(op, sample).astype(dtype)
    y = apply(op, x, dims=["[n, 3]"])
    assert isinstance(y, np.ndarray) and y.shape == (n, 3) and y.dtype == dtype
    expected = FLOAT_EXPECTED[op](x.astype(np.float64))
    np.testing.assert_allclose(y, expected, rtol=1e-6 if dtype == "float32" else 1e-13)


@pytest.mark.parametrize("op", ["exp", "sigmoid", "erf", "sqrt"])
def test_float16_keeps_its_data_type(op: str) -> None:
    x = np.array([0.5, 1.0, 2.0], np.float16)
    y = apply(op, x, dims=["ndim = 1"])
    assert isinstance(y, np.ndarray) and y.dtype == np.float16
    np.testing.assert_allclose(y, FLOAT_EXPECTED[op](x.astype(np.float64)), rtol=1e-3)


def test_unknown_data_type_takes_the_run_time_one() -> None:
    x = np.array([[0.25, 4.0]], np.float32)
    for op in ("sqrt", "erf", "sign", "isnan"):
        y = run_strictly(function("%x: !relax.tensor<[n, m]>", f"%y = relax.{op} %x"), x)
        assert isinstance(y, np.ndarray)
        assert y.dtype == (np.bool_ if op == "isnan" else np.float32), op


def test_special_values_give_nan_and_infinities_without_warnings() -> None:
    x = np.array([0.0, -1.0, np.inf, -np.inf, np.nan], np.float32)
    nan, inf = np.nan, np.inf
    expectations = {
        "log": [-inf, nan, inf, nan, nan],
        "sqrt": [0, nan, inf, nan, nan],
        "rsqrt": [inf, nan, 0, nan, nan],
        "exp": [1, math.exp(-1), inf, 0, nan],
        "sigmoid": [0.5, 1 / (1 + math.e), 1, 0, nan],
        "erf": [0, math.erf(-1), 1, -1, nan],
        "acosh": [nan, nan, inf, nan, nan],
    }
    for op, expected in expectations.items():
        np.testing.assert_allclose(apply(op, x), np.float32(expected), rtol=1e-6, err_msg=op)  # pyright: ignore


def test_erf_to_float64_precision() -> None:
    x = np.concatenate([np.linspace(-6, 6, 2001), np.geomspace(1e-300, 0.9, 50), [5e-324, 1.0]])
    y = apply("erf", x)
    expected = np.array([math.erf(v) for v in x.tolist()])
    assert isinstance(y, np.ndarray)
    # math.erf is itself within an ulp or so
    assert np.all(np.abs(y - expected) <= 2 * np.spacing(np.abs(expected)))


def test_erf_matches_tvm() -> None:
    x = np.array([-6, -3, -1e-30, 0.3, 1, 2.5, 4, np.inf, np.nan])
    tvm_f32 = [-1.0, -0.9999778866767883, -1.1283792206876573e-30, 0.3286267817020416]
    tvm_f32 += [0.8427007794380188, 0.9995930194854736, 1.0, 1.0, np.nan]
    tvm_f16 = [-1.0, -1.0, -0.0, 0.32861328125, 0.8427734375, 0.99951171875, 1.0, 1.0, np.nan]
    # TVM calls libm's erff, within an ulp of the correctly rounded value given here
    y = apply("erf", x.astype(np.float32))
    np.testing.assert_allclose(y, np.float32(tvm_f32), rtol=1.2e-7)  # pyright: ignore
    np.testing.assert_array_equal(apply("erf", x.astype(np.float16)), np.float16(tvm_f16))


# --- operators on any data type -------------------------------------------------------


def test_rounding_matches_tvm() -> None:
    x = np.array([np.nan, -0.0, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, np.inf, 3.7, -3.7], np.float32)
    nan, inf = np.nan, np.inf
    # TVM rounds half to even (nearbyint), as NumPy does
    expected = {
        "round": [nan, -0.0, -2, -2, -0.0, 0, 2, 2, inf, 4, -4],
        "trunc": [nan, -0.0, -2, -1, -0.0, 0, 1, 2, inf, 3, -3],
        "floor": [nan, -0.0, -3, -2, -1, 0, 1, 2, inf, 3, -4],
        "ceil": [nan, -0.0, -2, -1, -0.0, 1, 2, 3, inf, 4, -3],
    }
    for op, values in expected.items():
        y = apply(op, x, dims=["[n]"])
        np.testing.assert_array_equal(y, np.float32(values), err_msg=op)
        assert np.array_equal(np.signbit(y), np.signbit(values), equal_nan=True), op  # pyright: ignore


@pytest.mark.parametrize("op", ["round", "trunc", "floor", "ceil"])
@pytest.mark.parametrize("dtype", ["int64", "uint8", "bool"])
def test_rounding_leaves_integers_unchanged(op: str, dtype: str) -> None:
    x = {
        "int64": np.array([2**62 + 1, -(2**53) - 1, 0], np.int64),
        "uint8": np.array([0, 7, 255], np.uint8),
        "bool": np.array([True, False]),
    }[dtype]
    y = apply(op, x, dims=["[n]"])
    assert isinstance(y, np.ndarray) and y.dtype == x.dtype
    np.testing.assert_array_equal(y, x)


def test_sign_matches_tvm() -> None:
    x = np.array([np.nan, -0.0, 0.0, -2.5, 0.5, np.inf, -np.inf], np.float32)
    y = apply("sign", x)
    # NaN has sign 0 and zeros give +0, as TVM's selects on ordered comparisons do
    np.testing.assert_array_equal(y, np.float32([0, 0, 0, -1, 1, 1, -1]))
    assert not np.signbit(y[:3]).any()  # pyright: ignore
    np.testing.assert_array_equal(apply("sign", np.array([-7, 0, 3], np.int32)), [-1, 0, 1])
    np.testing.assert_array_equal(apply("sign", np.array([0, 3], np.uint8)), [0, 1])


def test_integer_arithmetic_wraps_as_tvm() -> None:
    int8 = np.array([-128, -3, 12], np.int8)
    np.testing.assert_array_equal(apply("abs", int8), np.int8([-128, 3, 12]))
    np.testing.assert_array_equal(apply("square", int8), np.int8([0, 9, -112]))
    np.testing.assert_array_equal(apply("negative", int8), np.int8([-128, 3, -12]))
    np.testing.assert_array_equal(apply("square", np.uint8([0, 3, 200])), np.uint8([0, 9, 64]))
    np.testing.assert_array_equal(apply("abs", np.uint8([0, 3, 200])), np.uint8([0, 3, 200]))


def test_float_arithmetic() -> None:
    x = np.array([-1.5, -0.0, 2.0, np.nan, -np.inf])
    np.testing.assert_array_equal(apply("abs", x), [1.5, 0.0, 2.0, np.nan, np.inf])
    np.testing.assert_array_equal(apply("negative", x), [1.5, 0.0, -2.0, np.nan, np.inf])
    np.testing.assert_array_equal(apply("square", x), [2.25, 0.0, 4.0, np.nan, np.inf])


def test_bitwise_not() -> None:
    np.testing.assert_array_equal(apply("bitwise_not", np.uint8([0, 5, 255])), [255, 250, 0])
    np.testing.assert_array_equal(apply("bitwise_not", np.int32([0, 5, -1])), [-1, -6, 0])
    np.testing.assert_array_equal(apply("bitwise_not", np.array([True, False])), [False, True])


def test_logical_not() -> None:
    y = apply("logical_not", np.array([[True, False]]), dims=["[1, n]"])
    assert isinstance(y, np.ndarray) and y.dtype == np.bool_
    np.testing.assert_array_equal(y, [[False, True]])


@pytest.mark.parametrize(
    ("op", "x", "message"),
    [
        ("logical_not", np.int32([0, 3]), "relax.logical_not: expected a bool tensor"),
        ("bitwise_not", np.float32([1.0]), "relax.bitwise_not: "),
    ],
)
def test_operators_tvm_cannot_compile_fail_at_run_time(
    op: str, x: np.ndarray, message: str
) -> None:
    # TVM's inference accepts these data types but its code generation rejects them
    with pytest.raises(RelaxRuntimeError, match=message):
        apply(op, x)


# --- checks -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 4])
def test_checks_on_floats(n: int) -> None:
    x = np.tile(np.array([np.nan, np.inf, -np.inf, 0.0, -2.0], np.float32), (n, 1))
    finite, inf, nan = (apply(op, x, dims=["[n, 5]"]) for op in ("isfinite", "isinf", "isnan"))
    for y in (finite, inf, nan):
        assert isinstance(y, np.ndarray) and y.dtype == np.bool_ and y.shape == (n, 5)
    np.testing.assert_array_equal(finite, np.tile([False, False, False, True, True], (n, 1)))
    np.testing.assert_array_equal(inf, np.tile([False, True, True, False, False], (n, 1)))
    np.testing.assert_array_equal(nan, np.tile([True, False, False, False, False], (n, 1)))


def test_checks_on_integers() -> None:
    x = np.int32([1, -2])
    np.testing.assert_array_equal(apply("isfinite", x), [True, True])
    np.testing.assert_array_equal(apply("isinf", x), [False, False])
    np.testing.assert_array_equal(apply("isnan", x), [False, False])


# --- clip ----------------------------------------------------------------------------------


def clip(x: np.ndarray, param: str, low: str, high: str) -> object:
    module = function(
        f"%x: {param}",
        f"%lo = relax.prim_value {low}",
        f"%hi = relax.prim_value {high}",
        "%y = relax.clip %x, %lo, %hi",
    )
    return run(module, "main", x)


@pytest.mark.parametrize("n", [0, 2, 3])
def test_clip_for_several_symbolic_sizes(n: int) -> None:
    x = np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32) * 3
    y = clip(x, "!relax.tensor<[n, 4], f32>", "-1.0", "2.0")
    assert isinstance(y, np.ndarray) and y.dtype == np.float32 and y.shape == (n, 4)
    np.testing.assert_array_equal(y, np.minimum(np.maximum(x, -1), 2))


def test_clip_matches_tvm() -> None:
    x = np.array([np.nan, -0.0, -2.5, -0.5, 0.5, 2.5, np.inf, -np.inf], np.float32)
    # NaN clips to the upper bound, min() is applied before max()
    expected = [2.0, -0.0, -1.0, -0.5, 0.5, 2.0, 2.0, -1.0]
    np.testing.assert_array_equal(clip(x, "!relax.tensor<[8], f32>", "-1.0", "2.0"), expected)
    # bounds in the wrong order: the lower bound wins
    np.testing.assert_array_equal(clip(x, "!relax.tensor<[8], f32>", "2.0", "-1.0"), [2.0] * 8)
    # float bounds are cast (truncated) to the tensor's integer data type
    y = clip(np.int32([-5, 0, 5, 7]), "!relax.tensor<[4], i32>", "-1.7", "5.9")
    assert isinstance(y, np.ndarray) and y.dtype == np.int32
    np.testing.assert_array_equal(y, [-1, 0, 5, 5])


def test_clip_of_a_prim_value() -> None:
    y = clip(np.float64(7.5), "!relax.prim<f64>", "0.0", "1.0")  # pyright: ignore[reportArgumentType]
    assert isinstance(y, PrimValue) and y.value == 1.0


def test_clip_bounds_from_symbolic_values() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[n], i64>) -> !relax.object {
  %hi = relax.prim_value n - 1
  %zero = relax.prim_value 0
  %y = relax.clip %x, %zero, %hi
  relax.return %y
}
""")
    y = run(module, "main", np.arange(-2, 4, dtype=np.int64))
    np.testing.assert_array_equal(y, [0, 0, 0, 1, 2, 3])  # pyright: ignore[reportArgumentType]
