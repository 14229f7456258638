"""The set operators in the interpreter, against expectations computed element by
element in Python; and a match_cast recovering their data-dependent lengths."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from operator_harness import function, load, run_tensor

from relax_dialect.interpreter import RelaxRuntimeError, run
from relax_dialect.values import ShapeValue


def unique(
    x: np.ndarray,
    x_type: str,
    flags: str,
    sorted_: bool = True,
    axis: int | None = None,
) -> Any:
    """``relax.unique %x, %sorted, <flags>[, %axis]`` (flags: three of ``%t``/``%f``);
    the function's result type is the inferred one, checked by the run."""
    axis_operand = "" if axis is None else ", %axis"
    module = function(
        f"%x: {x_type}, %sorted: !relax.prim<bool>, %axis: !relax.prim<i64>",
        "%t = relax.prim_value true",
        "%f = relax.prim_value false",
        f"%r = relax.unique %x, %sorted, {flags}{axis_operand}",
        ret=None,
    )
    return run(module, "main", x, sorted_, axis or 0)


def first_occurrences(items: list) -> tuple[list, list[int], list[int], list[int]]:
    """Distinct items in order of first occurrence, where each first occurs, the
    position of each item's value, and the counts (NaNs are one value)."""
    values: list = []
    index: list[int] = []
    counts: list[int] = []
    inverse: list[int] = []
    for position, item in enumerate(items):
        key = "nan" if item != item else item
        keys = ["nan" if v != v else v for v in values]
        if key in keys:
            slot = keys.index(key)
            counts[slot] += 1
        else:
            slot = len(values)
            values.append(item)
            index.append(position)
            counts.append(1)
        inverse.append(slot)
    return values, index, inverse, counts


def ascending(first: tuple[list, list[int], list[int], list[int]]) -> tuple:
    """The same, with the distinct values sorted (NaN last)."""
    values, index, inverse, counts = first
    order = sorted(range(len(values)), key=lambda i: (values[i] != values[i], values[i]))
    rank = {slot: r for r, slot in enumerate(order)}
    return (
        [values[i] for i in order],
        [index[i] for i in order],
        [rank[slot] for slot in inverse],
        [counts[i] for i in order],
    )


X = "!relax.tensor<[n, m], f32>"


@pytest.mark.parametrize(("n", "m"), [(1, 1), (3, 4), (6, 5), (0, 3)])
@pytest.mark.parametrize("sorted_", [True, False])
def test_unique_of_the_flattened_input(n: int, m: int, sorted_: bool) -> None:
    x = np.random.default_rng(n * m).integers(-2, 3, (n, m)).astype(np.float32)
    first = first_occurrences(x.reshape(-1).tolist())
    values, index, inverse, counts = ascending(first) if sorted_ else first
    result = unique(x, X, "%t, %t, %t", sorted_)
    assert isinstance(result, tuple) and len(result) == 4
    assert result[0].dtype == np.float32 and result[0].tolist() == values
    for array, expected in zip(result[1:], (index, inverse, counts), strict=True):
        assert array.dtype == np.int64 and array.tolist() == expected


@pytest.mark.parametrize(
    ("flags", "outputs"),
    [
        ("%f, %f, %f", ()),
        ("%t, %f, %f", ("index",)),
        ("%f, %t, %f", ("inverse",)),
        ("%f, %f, %t", ("counts",)),
        ("%t, %f, %t", ("index", "counts")),
    ],
)
def test_unique_returns_the_requested_outputs_in_order(flags: str, outputs: tuple) -> None:
    x = np.array([[3, 1], [3, 2]], np.int32)
    expected = {"index": [0, 1, 3], "inverse": [0, 1, 0, 2], "counts": [2, 1, 1]}
    result = unique(x, "!relax.tensor<[2, 2], i32>", flags, sorted_=False)
    if not outputs:
        assert isinstance(result, np.ndarray) and result.tolist() == [3, 1, 2]
        return
    assert isinstance(result, tuple) and result[0].tolist() == [3, 1, 2]
    assert [r.tolist() for r in result[1:]] == [expected[o] for o in outputs]


def test_unique_counts_nans_as_one_value() -> None:
    x = np.array([np.nan, 1.0, np.nan, -1.0, 1.0], np.float32)
    values, index, inverse, counts = unique(x, "!relax.tensor<[5], f32>", "%t, %t, %t")
    np.testing.assert_array_equal(values, [-1.0, 1.0, np.nan])
    assert index.tolist() == [3, 1, 0] and inverse.tolist() == [2, 1, 2, 0, 1]
    assert counts.tolist() == [1, 2, 2]


def test_unique_of_a_scalar() -> None:
    result = unique(np.array(7, np.int8), "!relax.tensor<[], i8>", "%t, %t, %t")
    assert [r.tolist() for r in result] == [[7], [0], [0], [1]]


@pytest.mark.parametrize("sorted_", [True, False])
@pytest.mark.parametrize("axis", [0, -2])
def test_unique_rows(sorted_: bool, axis: int) -> None:
    x = np.array([[2, 0], [1, 5], [2, 0], [1, 4], [1, 5]], np.int64)
    first = first_occurrences([tuple(row) for row in x.tolist()])
    values, index, inverse, counts = ascending(first) if sorted_ else first
    result = unique(x, "!relax.tensor<[n, 2], i64>", "%t, %t, %t", sorted_, axis)
    assert [tuple(row) for row in result[0].tolist()] == values
    assert [r.tolist() for r in result[1:]] == [index, inverse, counts]


@pytest.mark.parametrize("sorted_", [True, False])
def test_unique_columns(sorted_: bool) -> None:
    x = np.array([[1, 0, 1, 0], [2, 9, 2, 3]], np.float32)
    columns = [tuple(column) for column in x.T.tolist()]
    values, index, inverse, counts = (
        ascending(first_occurrences(columns)) if sorted_ else first_occurrences(columns)
    )
    result = unique(x, "!relax.tensor<ndim = 2, f32>", "%t, %t, %t", sorted_, 1)
    assert [tuple(column) for column in result[0].T.tolist()] == values
    assert [r.tolist() for r in result[1:]] == [index, inverse, counts]


def test_unique_axis_out_of_range_at_run_time() -> None:
    with pytest.raises(RelaxRuntimeError, match="axis 2 is out of bounds"):
        unique(np.zeros((2, 2), np.float32), "!relax.tensor<f32>", "%f, %f, %f", axis=2)


# --- nonzero ---------------------------------------------------------------------


def nonzero(x: np.ndarray, x_type: str) -> np.ndarray:
    result = run_tensor(function(f"%x: {x_type}", "%r = relax.nonzero %x", ret=None), x)
    assert result.dtype == np.int64
    return result


@pytest.mark.parametrize(("n", "m"), [(1, 1), (3, 4), (5, 2), (0, 2)])
def test_nonzero_lists_coordinates_in_row_major_order(n: int, m: int) -> None:
    x = np.random.default_rng(n + m).integers(0, 2, (n, m)).astype(np.float32)
    coordinates = [(i, j) for i in range(n) for j in range(m) if x[i, j] != 0]
    expected = np.array(coordinates, np.int64).reshape(-1, 2).T
    np.testing.assert_array_equal(nonzero(x, X), expected)


def test_nonzero_of_scalars_bools_and_nan() -> None:
    assert nonzero(np.array(True), "!relax.tensor<[], bool>").tolist() == [[0]]
    assert nonzero(np.array(0.0, np.float32), "!relax.tensor").shape == (1, 0)
    flags = np.array([False, True, True, False])
    assert nonzero(flags, "!relax.tensor<[4], bool>").tolist() == [[1, 2]]
    floats = np.array([0.0, np.nan, -0.0, 1e-30], np.float64)
    assert nonzero(floats, "!relax.tensor<[4], f64>").tolist() == [[1, 3]]
    cube = np.zeros((2, 2, 2), np.int32)
    cube[1, 0, 1] = 5
    assert nonzero(cube, "!relax.tensor<ndim = 3, i32>").tolist() == [[1], [0], [1]]


# --- recovering the data-dependent lengths ------------------------------------------

RECOVER = """
relax.function @main(%x: !relax.tensor<[n], i32>) -> !relax.tuple<tensor<ndim = 1, i32>, tensor<ndim = 1, i32>, shape<ndim = 2>> {
  %t = relax.prim_value true
  %f = relax.prim_value false
  %u = relax.unique %x, %t, %f, %f, %t
  %values = relax.tuple_get_item %u[0]
  %counts = relax.tuple_get_item %u[1]
  %v = relax.match_cast %values : !relax.tensor<[m], i32>
  %c = relax.match_cast %counts : !relax.tensor<[m], i64>
  %twice = relax.add %v, %v : !relax.tensor<[m], i32>
  %order = relax.argsort %c {descending = true} : !relax.tensor<[m], i32>
  %nz = relax.nonzero %x
  %z = relax.match_cast %nz : !relax.tensor<[1, p], i64>
  %s = relax.shape [m, p] : !relax.shape<[m, p]>
  %r = relax.tuple(%twice, %order, %s)
  relax.return %r
}
"""


@pytest.mark.parametrize(
    ("x", "distinct", "nonzeros"),
    [
        ([4, 0, 4, 4, 1], [0, 1, 4], 4),
        ([0], [0], 0),
        ([3, 3], [3], 2),
        ([2, -1, 0, 5], [-1, 0, 2, 5], 3),
    ],
)
def test_match_cast_binds_the_data_dependent_lengths(
    x: list[int], distinct: list[int], nonzeros: int
) -> None:
    twice, order, shape = run(load(RECOVER), "main", np.array(x, np.int32))
    assert twice.tolist() == [2 * v for v in distinct]
    counts = [x.count(v) for v in distinct]
    assert order.tolist() == sorted(range(len(distinct)), key=lambda i: -counts[i])
    assert shape == ShapeValue((len(distinct), nonzeros))


def test_match_cast_checks_a_recovered_length_against_its_later_uses() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> !relax.tensor<ndim = 1, f32> {
  %t = relax.prim_value true
  %f = relax.prim_value false
  %a = relax.unique %x, %t, %f, %f, %f
  %b = relax.unique %y, %t, %f, %f, %f
  %u = relax.match_cast %a : !relax.tensor<[k], f32>
  %w = relax.match_cast %b : !relax.tensor<[k], f32>
  %s = relax.add %u, %w : !relax.tensor<[k], f32>
  relax.return %s
}
""")
    same = run(module, "main", np.array([1, 2, 1], np.float32), np.array([5, 5, 6], np.float32))
    assert same.tolist() == [6.0, 8.0]
    with pytest.raises(RelaxRuntimeError, match="dimension k bound to 2, got 1"):
        run(module, "main", np.array([1, 2, 1], np.float32), np.array([5, 5, 5], np.float32))
