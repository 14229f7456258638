"""The element-wise binary operators in the interpreter, against NumPy and against
values computed by TVM 0.25 on CPU (``relax.build`` with the LLVM target)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pytest
from operator_harness import apply, assert_exact

from relax_dialect.dtype import DataType
from relax_dialect.interpreter import RelaxRuntimeError
from relax_dialect.values import PrimValue


def array(dtype: str, *values: float) -> np.ndarray:
    return np.array(values, dtype)


# --- every operator against NumPy, with a symbolic dimension -----------------------


def floats(rows: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(0.5, 4.0, (rows, 4)).round(2).astype(np.float32)


def ints(rows: int, seed: int, low: int = -9, high: int = 10) -> np.ndarray:
    values = np.random.default_rng(seed).integers(low, high, (rows, 4))
    return values.astype(np.int32)


def nonzero(values: np.ndarray) -> np.ndarray:
    return np.where(values == 0, 3, values).astype(values.dtype)


def masks(rows: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).random((rows, 4)) < 0.5


Inputs = Callable[[int, int], np.ndarray]

# Operator, inputs (rows, seed) -> array, reference on the two arrays, result data type.
REFERENCE: list[tuple[str, Inputs, Inputs, Callable[..., np.ndarray], str]] = [
    ("add", floats, floats, lambda a, b: a + b, "float32"),
    ("subtract", ints, ints, lambda a, b: a - b, "int32"),
    ("multiply", floats, floats, lambda a, b: a * b, "float32"),
    ("divide", floats, floats, lambda a, b: a / b, "float32"),
    ("divide", ints, lambda r, s: nonzero(ints(r, s)), lambda a, b: np.trunc(a / b), "int32"),
    ("floor_divide", ints, lambda r, s: nonzero(ints(r, s)), lambda a, b: a // b, "int32"),
    ("mod", ints, lambda r, s: nonzero(ints(r, s)), np.fmod, "int32"),
    ("floor_mod", ints, lambda r, s: nonzero(ints(r, s)), lambda a, b: a % b, "int32"),
    ("power", floats, floats, lambda a, b: a**b, "float32"),
    ("maximum", ints, ints, np.maximum, "int32"),
    ("minimum", floats, floats, np.minimum, "float32"),
    ("atan2", floats, lambda r, s: -floats(r, s), np.arctan2, "float32"),
    ("equal", ints, lambda r, s: ints(r, s, 0, 3), lambda a, b: a == b, "bool"),
    ("not_equal", ints, lambda r, s: ints(r, s, 0, 3), lambda a, b: a != b, "bool"),
    ("less", floats, floats, lambda a, b: a < b, "bool"),
    ("less_equal", ints, lambda r, s: ints(r, s, 0, 3), lambda a, b: a <= b, "bool"),
    ("greater", ints, ints, lambda a, b: a > b, "bool"),
    ("greater_equal", floats, floats, lambda a, b: a >= b, "bool"),
    ("logical_and", masks, masks, lambda a, b: a & b, "bool"),
    ("logical_or", masks, masks, lambda a, b: a | b, "bool"),
    ("logical_xor", masks, masks, lambda a, b: a != b, "bool"),
    ("bitwise_and", ints, ints, lambda a, b: a & b, "int32"),
    ("bitwise_or", ints, ints, lambda a, b: a | b, "int32"),
    ("bitwise_xor", ints, ints, lambda a, b: a ^ b, "int32"),
    ("left_shift", ints, lambda r, s: ints(r, s, 0, 8), lambda a, b: a * 2**b, "int32"),
    ("right_shift", ints, lambda r, s: ints(r, s, 0, 4), lambda a, b: a // 2**b, "int32"),
]


@pytest.mark.parametrize("rows", [0, 1, 3])
@pytest.mark.parametrize(
    ("op", "first", "second", "reference", "dtype"),
    REFERENCE,
    ids=[f"{case[0]}-{case[4]}" for case in REFERENCE],
)
def test_against_numpy_with_broadcasting(
    op: str,
    first: Inputs,
    second: Inputs,
    reference: Callable[..., np.ndarray],
    dtype: str,
    rows: int,
) -> None:
    x1, x2 = first(rows, 1), second(1, 2)[0]  # [n, 4] with [4]
    assert_exact(apply(op, x1, x2, dims=["[n, 4]"]), reference(x1, x2).astype(dtype), dtype)


def test_log_add_exp_against_numpy() -> None:
    x1, x2 = floats(3, 1) - 2, floats(1, 2)
    actual = apply("log_add_exp", x1, x2)
    np.testing.assert_allclose(actual, np.logaddexp(x1, x2), rtol=1e-6)  # pyright: ignore


# --- TVM's numerics -----------------------------------------------------------------


SIGNS_7 = array("int32", 7, -7, 7, -7)
SIGNS_2 = array("int32", 2, 2, -2, -2)
HALVES = array("float32", 7.5, -7.5, 7.5, -7.5, 1.0)
DIVISORS = array("float32", 2, 2, -2, -2, 0.1)
NAN = float("nan")
INF = float("inf")

# Operator, operands, expected result and its data type, as TVM computes them.
TVM_VALUES: list[tuple[str, np.ndarray, np.ndarray, list[float], str]] = [
    # integer division truncates; floor_divide and floor_mod round toward -inf
    ("divide", SIGNS_7, SIGNS_2, [3, -3, -3, 3], "int32"),
    ("floor_divide", SIGNS_7, SIGNS_2, [3, -4, -4, 3], "int32"),
    ("mod", SIGNS_7, SIGNS_2, [1, -1, 1, -1], "int32"),
    ("floor_mod", SIGNS_7, SIGNS_2, [1, 1, -1, -1], "int32"),
    ("divide", array("uint8", 255, 6), array("uint8", 2, 4), [127, 1], "uint8"),
    ("floor_mod", array("uint8", 255, 6), array("uint8", 2, 4), [1, 2], "uint8"),
    ("subtract", array("uint8", 1), array("uint8", 2), [255], "uint8"),
    # on floats: fmod, and floor(x1 / x2) (1 / 0.1 rounds to 10 in f32)
    ("mod", HALVES[:4], DIVISORS[:4], [1.5, -1.5, 1.5, -1.5], "float32"),
    ("floor_divide", HALVES, DIVISORS, [3, -4, -4, 3, 10], "float32"),
    ("floor_mod", HALVES, DIVISORS, [1.5, 0.5, -0.5, -1.5, 0], "float32"),
    ("mod", array("float32", 1, -1), array("float32", 0, 0), [NAN, NAN], "float32"),
    (
        "floor_divide",
        array("float32", 1, -1, 0),
        array("float32", 0, 0, 0),
        [INF, -INF, NAN],
        "float32",
    ),
    (
        "floor_mod",
        array("float32", 1, INF, 1),
        array("float32", 0, 2, INF),
        [NAN, NAN, NAN],
        "float32",
    ),
    # maximum/minimum select x1 only when it compares greater/less: NaN asymmetry
    (
        "maximum",
        array("float32", NAN, 1, NAN),
        array("float32", 1, NAN, NAN),
        [1, NAN, NAN],
        "float32",
    ),
    (
        "minimum",
        array("float32", NAN, 1, NAN),
        array("float32", 1, NAN, NAN),
        [1, NAN, NAN],
        "float32",
    ),
    # ordered comparisons: NaN is not even unequal
    (
        "not_equal",
        array("float32", NAN, 1, NAN, 1),
        array("float32", 1, NAN, NAN, 2),
        [0, 0, 0, 1],
        "bool",
    ),
    ("equal", array("float32", NAN, 1, NAN), array("float32", 1, NAN, NAN), [0, 0, 0], "bool"),
    ("greater_equal", array("float32", NAN, 1), array("float32", 1, NAN), [0, 0], "bool"),
    (
        "power",
        array("float32", -2, 2, 0, -8),
        array("float32", 3, 0.5, -1, 1 / 3),
        [-8, 2**0.5, INF, NAN],
        "float32",
    ),
    # log(exp(x1) + exp(x2)) literally: it overflows
    (
        "log_add_exp",
        array("float32", 100, -200),
        array("float32", 100, -200),
        [INF, -INF],
        "float32",
    ),
    (
        "atan2",
        array("float32", 1, -1, 0),
        array("float32", 0, -1, -1),
        [np.pi / 2, -3 * np.pi / 4, np.pi],
        "float32",
    ),
    # logical_xor is x1 ^ x2: bitwise on integers
    ("logical_xor", array("int32", 5, 0), array("int32", 3, 2), [6, 2], "int32"),
    ("logical_and", array("bool", 0, 1, 1), array("bool", 1, 0, 1), [0, 0, 1], "bool"),
    ("bitwise_and", array("bool", 0, 1, 1), array("bool", 1, 0, 1), [0, 0, 1], "bool"),
    ("bitwise_and", array("int32", -1, 6), array("int32", 5, 3), [5, 2], "int32"),
    ("left_shift", array("int32", -1, 6), array("int32", 5, 3), [-32, 48], "int32"),
    ("right_shift", array("int32", -16, 6), array("int32", 2, 1), [-4, 3], "int32"),
    ("right_shift", array("uint8", 255, 6), array("uint8", 2, 1), [63, 3], "uint8"),
    # comparisons of different data types convert as TIR does (not as NumPy)
    ("less", array("float32", 1, 2), array("int32", 2, 2), [1, 0], "bool"),
    ("equal", array("int64", 2**24 + 1), array("float32", 2**24), [1], "bool"),
    ("less", array("int8", -1), array("uint8", 1), [0], "bool"),
    ("less", array("int32", -1), array("uint8", 1), [1], "bool"),
    # bool mixes with any data type and is converted to it
    ("add", array("float32", 1.5, 2), array("bool", 1, 0), [2.5, 2], "float32"),
    ("bitwise_and", array("int32", 1, 3, 2), array("bool", 1, 1, 0), [1, 1, 0], "int32"),
    # comparisons and extrema of bool tensors are defined
    ("equal", array("bool", 1, 1, 0), array("bool", 1, 0, 0), [1, 0, 1], "bool"),
    ("maximum", array("bool", 1, 0, 0), array("bool", 0, 1, 0), [1, 1, 0], "bool"),
]


@pytest.mark.parametrize(
    ("op", "x1", "x2", "expected", "dtype"),
    TVM_VALUES,
    ids=[f"{case[0]}-{case[1].dtype}-{case[2].dtype}-{i}" for i, case in enumerate(TVM_VALUES)],
)
def test_tvm_numerics(
    op: str, x1: np.ndarray, x2: np.ndarray, expected: list[float], dtype: str
) -> None:
    actual = apply(op, x1, x2)
    if op in ("power", "atan2"):
        np.testing.assert_allclose(actual, np.asarray(expected, dtype), rtol=1e-6, strict=True)  # pyright: ignore
    else:
        assert_exact(actual, expected, dtype)


@pytest.mark.parametrize(
    ("op", "x1", "x2", "message"),
    [
        ("power", array("int32", 2), array("int32", 3), "on float data only, not on i32"),
        ("atan2", array("int64", 2), array("int64", 3), "on float data only, not on i64"),
        ("log_add_exp", array("bool", 1), array("float32", 3), "on float data only, not on bool"),
        ("add", array("bool", 1), array("bool", 1), "on int, uint, float data only, not on bool"),
        (
            "divide",
            array("bool", 1),
            array("bool", 1),
            "on int, uint, float data only, not on bool",
        ),
        ("logical_and", array("int32", 1), array("int32", 1), "on bool data only, not on i32"),
        ("logical_or", array("bool", 1), array("float32", 1), "on bool data only, not on f32"),
        (
            "logical_xor",
            array("float32", 1),
            array("float32", 1),
            "on bool, int, uint data only, not on f32",
        ),
        (
            "bitwise_or",
            array("float16", 1),
            array("float16", 1),
            "on bool, int, uint data only, not on f16",
        ),
        ("left_shift", array("bool", 1), array("bool", 1), "on int, uint data only, not on bool"),
        ("right_shift", array("int8", 1), array("bool", 1), "on int, uint data only, not on bool"),
    ],
)
def test_data_types_tvm_cannot_compute(
    op: str, x1: np.ndarray, x2: np.ndarray, message: str
) -> None:
    with pytest.raises(
        RelaxRuntimeError, match=re.escape(f"relax.{op}: TVM computes this operator {message}")
    ):
        apply(op, x1, x2)


def test_shapes_that_do_not_broadcast_at_run_time() -> None:
    with pytest.raises(RelaxRuntimeError) as failure:
        apply("add", floats(3, 0), floats(2, 1), dims=["[n, 4]", "[m, 4]"])
    assert str(failure.value).endswith(
        "relax.add: operands could not be broadcast together with shapes (3,4) (2,4)"
    )


# --- prim values ------------------------------------------------------------------


def test_prim_values_act_as_one_element_tensors() -> None:
    p = PrimValue(2.0, DataType.parse("f32"))  # pyright: ignore[reportArgumentType]
    x = array("float32", 1, 2, 3)
    assert_exact(apply("subtract", x, p), [-1, 0, 1], "float32")
    assert_exact(apply("power", p, x), [2, 4, 8], "float32")
    # a prim value against a 0-d tensor: shape [1]
    assert_exact(apply("multiply", p, np.array(3.0, np.float32)), [6], "float32")
    assert apply("less", p, np.array(3.0, np.float32)).shape == (1,)  # pyright: ignore


def test_two_prim_values_give_a_prim_value() -> None:
    i64 = DataType.parse("i64")
    seven, two = PrimValue(-7, i64), PrimValue(2, i64)  # pyright: ignore[reportArgumentType]
    assert apply("floor_divide", seven, two) == PrimValue(-4, i64)  # pyright: ignore
    assert apply("divide", seven, two) == PrimValue(-3, i64)  # pyright: ignore
    assert apply("greater", seven, two) == PrimValue(False, DataType.parse("bool"))  # pyright: ignore
