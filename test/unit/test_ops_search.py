"""The search operators in the interpreter, against NumPy and against values
computed by TVM 0.25 on CPU (``relax.build`` with the LLVM target)."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import apply, assert_exact

from relax_dialect.interpreter import RelaxRuntimeError

NAN, INF = float("nan"), float("inf")


# --- where --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 3])
def test_where_broadcasts_condition_and_values(n: int) -> None:
    rng = np.random.default_rng(n)
    condition = rng.random((n, 1)) < 0.5
    x1 = rng.standard_normal((1, 4)).astype(np.float32)
    x2 = rng.standard_normal((4,)).astype(np.float32)
    actual = apply("where", condition, x1, x2, dims=["[n, 1]"])
    assert_exact(actual, np.where(condition, x1, x2), "float32")


@pytest.mark.parametrize("n", [0, 2, 5])
def test_where_with_symbolic_values(n: int) -> None:
    rng = np.random.default_rng(n)
    condition = rng.random((n, 3)) < 0.5
    x1 = rng.integers(-5, 5, (n, 3)).astype(np.int64)
    x2 = np.array(7, np.int64)
    actual = apply("where", condition, x1, x2, dims=["[n, 3]", "[n, 3]"])
    assert_exact(actual, np.where(condition, x1, 7), "int64")


def test_where_scalar_condition_nan_and_bool_values() -> None:
    x1, x2 = np.array([NAN, 1], np.float32), np.array([2, NAN], np.float32)
    assert_exact(apply("where", np.array([True, False]), x1, x2), [NAN, NAN], "float32")
    assert_exact(apply("where", np.array(False), x1, x2), [2, NAN], "float32")
    # bool values mix with others; the first value's data type wins
    mask = np.array([True, False])
    assert_exact(apply("where", np.array([True, True]), mask, x1), [True, False], "bool")
    assert_exact(apply("where", np.array([False, True]), x1, mask), [1, 1], "float32")


# --- argmax / argmin ----------------------------------------------------------------


AXES = [("", None, False), (" {keepdims = true}", None, True)] + [
    (f" {{axis = {axis}, keepdims = {str(keep).lower()}}}", axis, keep)
    for axis in (0, 1, -1, -3)
    for keep in (False, True)
]


@pytest.mark.parametrize("n", [1, 4])
@pytest.mark.parametrize(("attrs", "axis", "keepdims"), AXES)
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_index_reductions_against_numpy(
    op: str, attrs: str, axis: int | None, keepdims: bool, n: int
) -> None:
    # distinct values, so that NumPy and TVM agree
    data = np.random.default_rng(n).permutation(n * 15).reshape(n, 3, 5).astype(np.float32)
    expected = getattr(np, op)(data, axis=axis, keepdims=keepdims)
    assert_exact(apply(op, data, dims=["[n, 3, 5]"], attrs=attrs), expected, "int64")


# Operator, attributes, input, expected result, as TVM computes them.
TVM_VALUES = [
    # ties: the first index
    ("argmax", "", np.array([3, 5, 5, 1], np.int32), 1),
    ("argmin", "", np.array([2, 0, 0], np.uint8), 1),
    # an element after the last NaN; the last NaN when it ends the axis
    ("argmax", "", np.array([1, NAN, 0.5], np.float32), 2),
    ("argmax", "", np.array([1, 3, NAN], np.float32), 2),
    ("argmax", "", np.array([NAN, NAN], np.float32), 1),
    ("argmax", "", np.array([NAN, -INF], np.float32), 1),
    ("argmin", "", np.array([1, NAN, 0.5, 2], np.float32), 2),
    ("argmin", "", np.array([NAN, INF], np.float64), 1),
    ("argmax", " {axis = 1}", np.array([[1, NAN, 0.5], [3, 2, NAN]], np.float32), [2, 2]),
    # -1 when nothing beats the sentinel (the lowest/highest finite value)
    ("argmax", "", np.array([-INF, -INF], np.float32), -1),
    ("argmax", "", np.full(2, np.finfo(np.float32).min), -1),
    ("argmax", "", np.full(2, np.finfo(np.float16).min), -1),
    ("argmin", "", np.array([INF, INF], np.float32), -1),
    ("argmax", "", np.full(2, np.iinfo(np.int32).min, np.int32), -1),
    ("argmax", "", np.zeros(2, np.uint8), -1),
    ("argmin", " {keepdims = true}", np.full((2, 2), np.iinfo(np.int64).max), [[-1]]),
    ("argmax", "", np.array([-INF, 0], np.float32), 1),
]


@pytest.mark.parametrize(("op", "attrs", "data", "expected"), TVM_VALUES)
def test_index_reductions_tvm_values(
    op: str, attrs: str, data: np.ndarray, expected: object
) -> None:
    assert_exact(apply(op, data, attrs=attrs), expected, "int64")


def test_index_reductions_reject_bool_and_empty_axes() -> None:
    with pytest.raises(RelaxRuntimeError, match=r"relax\.argmax: TVM has no lowest or highest"):
        apply("argmax", np.array([True, False]))
    with pytest.raises(RelaxRuntimeError, match=r"relax\.argmin: axis 1 of the input is empty"):
        apply("argmin", np.zeros((2, 0), np.float32), attrs=" {axis = 1}")


# --- bucketize ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 2])
@pytest.mark.parametrize(
    ("attrs", "expected", "dtype"),
    [
        ("", [0, 0, 1, 1, 2, 3], "int64"),
        (" {right = true}", [0, 1, 1, 2, 3, 3], "int64"),
        (" {out_int32 = true, right = false}", [0, 0, 1, 1, 2, 3], "int32"),
    ],
)
def test_bucketize(attrs: str, expected: list[int], dtype: str, n: int) -> None:
    values = np.tile(np.array([0, 1, 2, 3, 5, 7], np.float32), (n, 1))
    boundaries = np.array([1, 3, 5], np.float32)
    actual = apply("bucketize", values, boundaries, dims=["[n, 6]"], attrs=attrs)
    assert_exact(actual, np.tile(np.array(expected), (n, 1)), dtype)
