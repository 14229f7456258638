"""The sorting operators in the interpreter, against Python's stable ``sorted``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from operator_harness import function

from relax_dialect.interpreter import RelaxRuntimeError, run


def apply(binding: str, x: np.ndarray, x_type: str) -> Any:
    """``%r = <binding>`` on parameter ``%x``; the function's result type is the
    inferred one, so that the run checks the kernel's shapes and data types."""
    return run(function(f"%x: {x_type}", f"%r = {binding}", ret=None), "main", x)


def ties(*shape: int, dtype: str = "float32") -> np.ndarray:
    """Random small integers: many equal elements."""
    return np.random.default_rng(sum(shape)).integers(-3, 4, shape).astype(dtype)


def stable_order(row: list, descending: bool) -> list[int]:
    """Indices sorting ``row`` stably: equal elements keep their order either way."""
    return sorted(range(len(row)), key=lambda i: -row[i] if descending else row[i])


def expected_argsort(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    moved = np.moveaxis(x, axis, -1)
    rows = [stable_order(row, descending) for row in moved.reshape(-1, moved.shape[-1]).tolist()]
    return np.moveaxis(np.array(rows, np.int64).reshape(moved.shape), -1, axis)


X = "!relax.tensor<[n, m], f32>"


@pytest.mark.parametrize(("n", "m"), [(1, 1), (3, 5), (6, 2)])
@pytest.mark.parametrize("axis", [0, 1, -1, -2])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort_are_stable(n: int, m: int, axis: int, descending: bool) -> None:
    x = ties(n, m)
    flag = "true" if descending else "false"
    order = apply(f"relax.argsort %x {{axis = {axis}, descending = {flag}}}", x, X)
    assert isinstance(order, np.ndarray) and order.dtype == np.int32
    expected = expected_argsort(x, axis, descending)
    np.testing.assert_array_equal(order, expected)
    values = apply(f"relax.sort %x {{axis = {axis}, descending = {flag}}}", x, X)
    assert isinstance(values, np.ndarray) and values.dtype == np.float32
    np.testing.assert_array_equal(values, np.take_along_axis(x, expected, axis))


def test_equal_elements_keep_input_order_in_both_directions() -> None:
    x = np.array([2, 1, 2, 3, 1, 2], np.int64)
    x_type = "!relax.tensor<[6], i64>"
    ascending = apply("relax.argsort %x {dtype = i64}", x, x_type)
    assert ascending.tolist() == [1, 4, 0, 2, 5, 3]
    descending = apply("relax.argsort %x {descending = true}", x, x_type)
    assert descending.tolist() == [3, 0, 2, 5, 1, 4]


def test_argsort_index_data_types() -> None:
    x = np.array([[0.5, -1.0, 0.0]], np.float64)
    as_void = apply("relax.argsort %x {dtype = void}", x, "!relax.tensor<[1, 3], f64>")
    assert as_void.dtype == np.float64 and as_void.tolist() == [[1.0, 2.0, 0.0]]
    unknown = apply("relax.argsort %x {dtype = i64}", x, "!relax.tensor")
    assert unknown.dtype == np.int64 and unknown.tolist() == [[1, 2, 0]]


def test_sort_unsigned_bool_and_nan() -> None:
    u = np.array([200, 3, 255, 0], np.uint8)
    down = apply("relax.sort %x {descending = true}", u, "!relax.tensor<[4], ui8>")
    assert down.tolist() == [255, 200, 3, 0]
    b = np.array([True, False, True])
    assert apply("relax.sort %x", b, "!relax.tensor<[3], bool>").tolist() == [False, True, True]
    # TVM leaves NaN's place undefined; here it sorts last ascending, first descending.
    f = np.array([1.0, np.nan, -1.0], np.float32)
    up = apply("relax.sort %x", f, "!relax.tensor<[3], f32>")
    np.testing.assert_array_equal(up, [-1.0, 1.0, np.nan])
    down = apply("relax.sort %x {descending = true}", f, "!relax.tensor<[3], f32>")
    np.testing.assert_array_equal(down, [np.nan, 1.0, -1.0])


def test_empty_axis_and_unknown_rank_axis_error() -> None:
    empty = np.zeros((2, 0), np.float32)
    assert apply("relax.argsort %x", empty, X).shape == (2, 0)
    with pytest.raises(RelaxRuntimeError, match="axis 2 is out of bounds"):
        apply("relax.sort %x {axis = 2}", empty, "!relax.tensor<f32>")


# --- topk ----------------------------------------------------------------------


@pytest.mark.parametrize(("n", "m"), [(3, 3), (4, 6), (7, 5)])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_topk_selects_the_first_of_a_stable_sort(n: int, m: int, largest: bool, axis: int) -> None:
    x = ties(n, m)
    flag = "true" if largest else "false"
    binding = f"relax.topk %x {{k = 3, axis = {axis}, largest = {flag}, dtype = i64}}"
    values, indices = apply(binding, x, X)
    expected = np.take(expected_argsort(x, axis, largest), range(3), axis)
    assert indices.dtype == np.int64 and values.dtype == np.float32
    np.testing.assert_array_equal(indices, expected)
    np.testing.assert_array_equal(values, np.take_along_axis(x, expected, axis))


def test_topk_ties_prefer_the_lower_index() -> None:
    x = np.array([1, 5, 5, 2, 5, 1], np.int32)
    x_type = "!relax.tensor<[6], i32>"
    largest = apply('relax.topk %x {k = 2, ret_type = "indices"}', x, x_type)
    assert largest.dtype == np.int32 and largest.tolist() == [1, 2]
    smallest = apply('relax.topk %x {k = 3, largest = false, ret_type = "indices"}', x, x_type)
    assert smallest.tolist() == [0, 5, 3]
    values = apply('relax.topk %x {k = 4, ret_type = "values"}', x, x_type)
    assert values.dtype == np.int32 and values.tolist() == [5, 5, 5, 2]


@pytest.mark.parametrize("k", [0, -1, 4, 9])
def test_topk_keeps_all_elements_when_k_is_below_one_or_at_least_the_length(k: int) -> None:
    x = np.array([[3.0, -1.0, 2.0, 2.0]], np.float32)
    values, indices = apply(
        f"relax.topk %x {{k = {k}, dtype = void}}", x, "!relax.tensor<[1, 4], f32>"
    )
    assert values.tolist() == [[3.0, 2.0, 2.0, -1.0]]
    assert indices.dtype == np.float32 and indices.tolist() == [[0.0, 2.0, 3.0, 1.0]]


def test_topk_longer_than_a_symbolic_axis_is_a_run_time_error() -> None:
    x_type = "!relax.tensor<[n], f32>"
    x = np.array([2.0, 1.0], np.float32)
    assert apply('relax.topk %x {k = 2, ret_type = "values"}', x, x_type).tolist() == [2.0, 1.0]
    with pytest.raises(RelaxRuntimeError, match="k = 3 exceeds the length 2 of axis -1"):
        apply("relax.topk %x {k = 3}", x, x_type)
    # without a known shape the result type leaves the length open
    values = apply('relax.topk %x {k = 3, ret_type = "values"}', x, "!relax.tensor<ndim = 1, f32>")
    assert values.tolist() == [2.0, 1.0]
