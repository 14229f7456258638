"""The shape manipulation operators in the interpreter, against NumPy
expectations written independently (index arithmetic and explicit loops)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from operator_harness import assert_exact, function

from relax_dialect.interpreter import RelaxRuntimeError, run
from relax_dialect.values import ShapeValue

F32 = np.float32


def numbers(*shape: int, dtype: type = F32) -> np.ndarray:
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


# --- reshaping ----------------------------------------------------------------------


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 3), (3, 5)])
def test_reshape(n: int, m: int) -> None:
    module = function(
        "%x: !relax.tensor<[n, m, 4], f32>, %s: !relax.shape<ndim = 2>",
        "%a = relax.shape [0, -1, 2]",
        "%b = relax.reshape %x, %a",
        "%c = relax.shape [-1]",
        "%d = relax.reshape %x, %c",
        "%e = relax.reshape %x, %s",
        "%f = relax.shape [m, n, 2, 2]",
        "%g = relax.reshape %x, %f",
        "%out = relax.tuple(%b, %d, %e, %g)",
    )
    x = numbers(n, m, 4)
    flat = [float(v) for v in range(n * m * 4)]
    b, d, e, g = run(module, "main", x, ShapeValue((4 * m, n)))  # pyright: ignore
    for result, shape in (
        (b, (n, 2 * m, 2)),
        (d, (n * m * 4,)),
        (e, (4 * m, n)),
        (g, (m, n, 2, 2)),
    ):
        assert result.shape == shape and result.dtype == F32
        assert result.ravel().tolist() == flat


def test_reshape_of_empty_and_scalar() -> None:
    module = function(
        "%x: !relax.tensor<[n, 3], i32>, %y: !relax.tensor<[], i32>",
        "%a = relax.shape [-1, 0]",
        "%b = relax.reshape %x, %a",
        "%c = relax.shape [1, 1]",
        "%d = relax.reshape %y, %c",
        "%out = relax.tuple(%b, %d)",
    )
    empty, one = run(module, "main", np.zeros((0, 3), np.int32), np.array(7, np.int32))  # pyright: ignore
    assert empty.shape == (0, 3) and one.shape == (1, 1) and one[0, 0] == 7


def test_reshape_element_count_checked_at_run_time() -> None:
    module = function(
        "%x: !relax.tensor<[n, 4], f32>", "%s = relax.shape [n, 3]", "%out = relax.reshape %x, %s"
    )
    with pytest.raises(RelaxRuntimeError, match=r"relax\.reshape"):
        run(module, "main", numbers(2, 4))


def test_flatten() -> None:
    module = function(
        "%x: !relax.tensor<[n, m, 3], f32>, %y: !relax.tensor<[], bool>",
        "%a = relax.flatten %x",
        "%b = relax.flatten %y",
        "%out = relax.tuple(%a, %b)",
    )
    x = numbers(2, 2, 3)
    a, b = run(module, "main", x, np.array(True))  # pyright: ignore
    assert_exact(
        a, np.array([x[i, j, k] for i in range(2) for j in range(2) for k in range(3)], F32)
    )
    assert_exact(b, np.array([True]))


@pytest.mark.parametrize("n", [1, 4])
def test_expand_dims(n: int) -> None:
    module = function(
        "%x: !relax.tensor<[n, 3], f32>",
        "%a = relax.expand_dims %x {axis = [0, -1]}",
        "%b = relax.expand_dims %x {axis = [-2]}",
        "%out = relax.tuple(%a, %b)",
    )
    x = numbers(n, 3)
    a, b = run(module, "main", x)  # pyright: ignore
    assert_exact(a, x[np.newaxis, :, :, np.newaxis])
    assert_exact(b, x[:, np.newaxis, :])


def test_squeeze() -> None:
    module = function(
        "%x: !relax.tensor<[1, n, 1, 3], f32>, %y: !relax.tensor<[1, 2, 1, 3], i8>",
        "%a = relax.squeeze %x {axis = [0, -2]}",
        "%b = relax.squeeze %x {axis = [3]}",
        "%c = relax.squeeze %y",
        "%d = relax.squeeze %x",
        "%e = relax.squeeze %x {axis = []}",
        "%out = relax.tuple(%a, %b, %c, %d, %e)",
    )
    x, y = numbers(1, 1, 1, 3), numbers(1, 2, 1, 3, dtype=np.int8)
    a, b, c, d, e = run(module, "main", x, y)  # pyright: ignore
    assert_exact(a, x[0, :, 0, :])
    assert_exact(b, x)  # a listed axis of length 3 stays
    assert_exact(c, y[0, :, 0, :])
    assert_exact(d, x[0, :, 0, :])  # only the constant 1s go, even when n is 1
    assert_exact(e, x)


def test_squeeze_of_a_symbolic_axis_needs_length_one() -> None:
    module = function("%x: !relax.tensor<[2, n], f32>", "%out = relax.squeeze %x {axis = [1]}")
    assert_exact(run(module, "main", numbers(2, 1)), numbers(2))
    with pytest.raises(RelaxRuntimeError, match=r"relax\.squeeze"):
        run(module, "main", numbers(2, 3))


# --- reordering -----------------------------------------------------------------------


@pytest.mark.parametrize(("n", "m"), [(1, 2), (3, 4)])
def test_permute_dims_and_flip(n: int, m: int) -> None:
    module = function(
        "%x: !relax.tensor<[n, m, 3], f32>, %b: !relax.tensor<[n, 2], bool>",
        "%r = relax.permute_dims %x",
        "%p = relax.permute_dims %x {axes = [1, -1, 0]}",
        "%f = relax.flip %x {axis = -2}",
        "%g = relax.flip %b {axis = 0}",
        "%out = relax.tuple(%r, %p, %f, %g)",
    )
    x = numbers(n, m, 3)
    mask = numbers(n, 2, dtype=np.int64) % 3 == 0
    r, p, f, g = run(module, "main", x, mask)  # pyright: ignore
    assert_exact(r, np.einsum("ijk->kji", x))
    assert_exact(p, np.einsum("ijk->jki", x))
    assert_exact(f, x[:, ::-1, :])
    assert_exact(g, mask[::-1])


# --- joining and splitting ----------------------------------------------------------------


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 3)])
def test_concat_and_stack(n: int, m: int) -> None:
    module = function(
        "%a: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<[m, 3], f32>, %c: !relax.tensor<[n, 2], f32>",
        "%ab = relax.tuple(%a, %b)",
        "%rows = relax.concat %ab",
        "%ac = relax.tuple(%a, %c)",
        "%cols = relax.concat %ac {axis = -1}",
        "%aaa = relax.tuple(%a, %a, %a)",
        "%first = relax.stack %aaa",
        "%last = relax.stack %aaa {axis = -1}",
        "%out = relax.tuple(%rows, %cols, %first, %last)",
    )
    a, b, c = numbers(n, 3), numbers(m, 3) + 100, numbers(n, 2) + 200
    rows, cols, first, last = run(module, "main", a, b, c)  # pyright: ignore
    assert_exact(rows, np.array([*a.tolist(), *b.tolist()], F32))
    assert_exact(
        cols, np.array([ra + rc for ra, rc in zip(a.tolist(), c.tolist(), strict=True)], F32)
    )
    assert_exact(first, np.array([a, a, a]))
    assert first.shape == (3, n, 3) and last.shape == (n, 3, 3)
    assert all((last[..., i] == a).all() for i in range(3))


def test_concat_of_bool() -> None:
    module = function(
        "%a: !relax.tensor<[2], bool>", "%t = relax.tuple(%a, %a)", "%out = relax.concat %t"
    )
    assert_exact(run(module, "main", np.array([True, False])), np.array([True, False] * 2))


@pytest.mark.parametrize("n", [3, 4, 5, 7])
def test_split_into_sections(n: int) -> None:
    module = function(
        "%x: !relax.tensor<[n, 10], f32>",
        "%cols = relax.split %x {indices_or_sections = 3, axis = 1}",
        "%rows = relax.split %x {indices_or_sections = 3}",
        "%whole = relax.split %x {indices_or_sections = 1}",
        "%out = relax.tuple(%cols, %rows, %whole)",
    )
    x = numbers(n, 10)
    cols, rows, whole = run(module, "main", x)  # pyright: ignore
    assert [c.shape[1] for c in cols] == [4, 4, 2]
    assert_exact(np.hstack(cols), x)
    size = (n + 2) // 3  # ceildiv: the last section takes the rest
    assert [r.shape[0] for r in rows] == [size, size, n - 2 * size]
    assert_exact(np.vstack(rows), x)
    assert_exact(whole, x)


def test_split_at_indices() -> None:
    module = function(
        "%x: !relax.tensor<[2, 10], i16>",
        "%a = relax.split %x {indices_or_sections = [3, 12, 2], axis = 1}",
        "%b = relax.split %x {indices_or_sections = [-3, 4], axis = -1}",
        "%out = relax.tuple(%a, %b)",
    )
    x = numbers(2, 10, dtype=np.int16)
    a, b = run(module, "main", x)  # pyright: ignore
    # indices are clamped to [0, 10]; a piece between decreasing indices is empty
    expected_a = [x[:, 0:3], x[:, 3:10], x[:, 10:10], x[:, 2:10]]
    expected_b = [x[:, 0:0], x[:, 0:4], x[:, 4:10]]
    for pieces, expected in ((a, expected_a), (b, expected_b)):
        assert len(pieces) == len(expected)
        for piece, want in zip(pieces, expected, strict=True):
            assert_exact(piece, want)


@pytest.mark.parametrize("n", [1, 4])
def test_meshgrid(n: int) -> None:
    module = function(
        "%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[3], f32>",
        "%t = relax.tuple(%a, %b)",
        "%ij = relax.meshgrid %t",
        '%xy = relax.meshgrid %t {indexing = "xy"}',
        "%out = relax.tuple(%ij, %xy)",
    )
    a, b = numbers(n), numbers(3) + 10
    (ia, ib), (xa, xb) = run(module, "main", a, b)  # pyright: ignore
    rows, cols = np.indices((n, 3))
    assert_exact(ia, a[rows])
    assert_exact(ib, b[cols])
    assert_exact(xa, a[rows.T])
    assert_exact(xb, b[cols.T])


# --- replication and its adjoint --------------------------------------------------------


@pytest.mark.parametrize("n", [1, 3])
def test_broadcast_to_tile_and_repeat(n: int) -> None:
    module = function(
        "%x: !relax.tensor<[n, 1], f32>, %y: !relax.tensor<[n, 3], i32>",
        "%s = relax.shape [2, n, 4]",
        "%b = relax.broadcast_to %x, %s",
        "%t = relax.tile %y {repeats = [2, 1, 3]}",
        "%flat = relax.repeat %y {repeats = 2}",
        "%rows = relax.repeat %y {repeats = 2, axis = -2}",
        "%out = relax.tuple(%b, %t, %flat, %rows)",
    )
    x, y = numbers(n, 1), numbers(n, 3, dtype=np.int32)
    b, t, flat, rows = run(module, "main", x, y)  # pyright: ignore
    _, i, _ = np.indices((2, n, 4))
    assert_exact(b, x[i, 0])
    assert b.flags.writeable
    _, i, j = np.indices((2, n, 9))
    assert_exact(t, y[i % n, j % 3])
    assert_exact(flat, np.array([v for v in y.ravel().tolist() for _ in range(2)], np.int32))
    assert_exact(rows, y[np.arange(2 * n) // 2])


@pytest.mark.parametrize("n", [1, 2])
def test_collapse_sum(n: int) -> None:
    module = function(
        "%x: !relax.tensor<[n, 3, 4], f32>, %t: !relax.tensor<[3, 1], i32>",
        "%like = relax.collapse_sum_like %x, %t",
        "%s = relax.shape [n, 1, 4]",
        "%to = relax.collapse_sum_to %x, %s",
        "%e = relax.shape []",
        "%all = relax.collapse_sum_to %x, %e",
        "%out = relax.tuple(%like, %to, %all)",
    )
    x = numbers(n, 3, 4)
    like, to, total = run(module, "main", x, np.zeros((3, 1), np.int32))  # pyright: ignore
    expected_like = [[sum(x[a, b, c] for a in range(n) for c in range(4))] for b in range(3)]
    assert_exact(like, np.array(expected_like, F32))
    assert_exact(to, x[:, 0:1, :] + x[:, 1:2, :] + x[:, 2:3, :])
    assert_exact(total, np.array(x.sum(dtype=np.float64), F32))


def test_collapse_sum_wraps_in_the_data_type() -> None:
    module = function(
        "%x: !relax.tensor<[4], i8>", "%s = relax.shape [1]", "%out = relax.collapse_sum_to %x, %s"
    )
    x = np.array([100, 100, 100, -7], np.int8)
    assert_exact(run(module, "main", x), np.array([(293 + 128) % 256 - 128], np.int8))


def test_collapse_sum_to_an_incompatible_shape_fails_at_run_time() -> None:
    module = function(
        "%x: !relax.tensor<[2, 3], f32>, %s: !relax.shape<ndim = 2>",
        "%out = relax.collapse_sum_to %x, %s",
    )
    with pytest.raises(RelaxRuntimeError, match="does not collapse"):
        run(module, "main", numbers(2, 3), ShapeValue((2, 2)))


# --- gathers --------------------------------------------------------------------------


def test_gather_elements() -> None:
    module = function(
        "%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], i64>",
        "%cols = relax.gather_elements %x, %i {axis = 1}",
        "%rows = relax.gather_elements %x, %i {axis = -2}",
        "%out = relax.tuple(%cols, %rows)",
    )
    x = numbers(4, 4)
    i = np.array([[3, 0], [1, 1]], np.int64)
    cols, rows = run(module, "main", x, i)  # pyright: ignore
    assert_exact(cols, np.array([[x[r, i[r, c]] for c in range(2)] for r in range(2)], F32))
    assert_exact(rows, np.array([[x[i[r, c], c] for c in range(2)] for r in range(2)], F32))


def test_gather_nd() -> None:
    module = function(
        "%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i64>, %j: !relax.tensor<[n, k, 2], i64>",
        "%a = relax.gather_nd %x, %i",
        "%b = relax.gather_nd %x, %j {batch_dims = 1}",
        "%out = relax.tuple(%a, %b)",
    )
    x = numbers(2, 4, 5)
    i = np.array([[1, 3], [0, 0], [1, 3]], np.int64)
    j = np.array([[[0, 4], [3, 1], [2, 2]], [[1, 0], [1, 1], [3, 4]]], np.int64)
    a, b = run(module, "main", x, i, j)  # pyright: ignore
    assert_exact(a, np.array([x[p, q, :] for p, q in i.tolist()], F32))
    expected_b = [[x[batch, p, q] for p, q in j[batch].tolist()] for batch in range(2)]
    assert_exact(b, np.array(expected_b, F32))


# --- scatters -------------------------------------------------------------------------


def reference_combine(reduction: str, old: float, new: float) -> float:
    """TVM's sequential update rules (its min/max select the old value only
    when it compares smaller/larger)."""
    rules: dict[str, Callable[[float, float], float]] = {
        "update": lambda a, b: b,
        "add": lambda a, b: a + b,
        "mul": lambda a, b: a * b,
        "mean": lambda a, b: (a + b) / 2,
        "min": lambda a, b: a if a < b else b,
        "max": lambda a, b: a if a > b else b,
    }
    return rules[reduction](old, new)


REDUCTIONS = ["update", "add", "mul", "mean", "min", "max"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_scatter_elements(reduction: str) -> None:
    module = function(
        "%x: !relax.tensor<[n, 3], f32>, %i: !relax.tensor<[m, 3], i64>, %u: !relax.tensor<[m, 3], f32>",
        f'%out = relax.scatter_elements %x, %i, %u {{reduction = "{reduction}"}}',
    )
    x = numbers(4, 3)
    x[2, 1] = np.nan
    # column 0 hits row 1 three times; column 1 hits row 2 (NaN) twice; -1 is row 3
    i = np.array([[1, 2, -1], [1, 0, 0], [1, 2, 3]], np.int64)
    u = np.array([[5, 9, 2], [-3, 1, 7], [8, np.nan, 4]], F32)
    expected = x.astype(np.float64)
    for r in range(3):
        for c in range(3):
            row = i[r, c] % 4
            expected[row, c] = reference_combine(reduction, expected[row, c], u[r, c])
    result = run(module, "main", x, i, u)
    assert isinstance(result, np.ndarray) and result.dtype == F32
    np.testing.assert_allclose(result, expected.astype(F32))


def test_scatter_elements_along_the_last_axis_of_integers() -> None:
    module = function(
        "%x: !relax.tensor<[2, 4], i32>, %i: !relax.tensor<[2, 2], i64>, %u: !relax.tensor<[2, 2], i32>",
        '%out = relax.scatter_elements %x, %i, %u {axis = -1, reduction = "add"}',
    )
    x = numbers(2, 4, dtype=np.int32)
    i = np.array([[3, 3], [0, -4]], np.int64)
    u = np.array([[10, 20], [-5, -6]], np.int32)
    assert_exact(run(module, "main", x, i, u), np.array([[0, 1, 2, 33], [-7, 5, 6, 7]], np.int32))


def test_scatter_out_of_bounds_fails() -> None:
    module = function(
        "%x: !relax.tensor<[2], f32>, %i: !relax.tensor<[1], i64>, %u: !relax.tensor<[1], f32>",
        "%out = relax.scatter_elements %x, %i, %u",
    )
    with pytest.raises(RelaxRuntimeError, match=r"relax\.scatter_elements"):
        run(module, "main", numbers(2), np.array([2], np.int64), numbers(1))


@pytest.mark.parametrize("reduction", [r for r in REDUCTIONS if r != "mean"])
def test_scatter_nd(reduction: str) -> None:
    module = function(
        "%x: !relax.tensor<[4, 3], f32>, %rows: !relax.tensor<[m, 1], i64>, %r: !relax.tensor<[m, 3], f32>, "
        "%points: !relax.tensor<[k, 2], i64>, %p: !relax.tensor<[k], f32>",
        f'%a = relax.scatter_nd %x, %rows, %r {{reduction = "{reduction}"}}',
        f'%b = relax.scatter_nd %x, %points, %p {{reduction = "{reduction}"}}',
        "%out = relax.tuple(%a, %b)",
    )
    x = numbers(4, 3)
    rows = np.array([[2], [0], [2]], np.int64)
    r = np.array([[1, -2, 3], [4, 5, 6], [-7, 8, 9]], F32)
    points = np.array([[3, 1], [0, 2], [3, 1], [3, 1]], np.int64)
    p = np.array([6, -1, 0.5, 2], F32)
    expected_a, expected_b = x.copy(), x.copy()
    for (row,), update in zip(rows.tolist(), r, strict=True):
        for c in range(3):
            expected_a[row, c] = reference_combine(reduction, expected_a[row, c], update[c])
    for (row, col), update in zip(points.tolist(), p.tolist(), strict=True):
        expected_b[row, col] = reference_combine(reduction, expected_b[row, col], update)
    a, b = run(module, "main", x, rows, r, points, p)  # pyright: ignore
    assert_exact(a, expected_a)
    assert_exact(b, expected_b)


def test_scatter_nd_of_whole_tensors() -> None:
    module = function(
        "%x: !relax.tensor<[2], f32>, %i: !relax.tensor<[3, 0], i64>, %u: !relax.tensor<[3, 2], f32>",
        '%out = relax.scatter_nd %x, %i, %u {reduction = "add"}',
    )
    u = numbers(3, 2)
    assert_exact(
        run(module, "main", numbers(2), np.zeros((3, 0), np.int64), u), numbers(2) + u.sum(0)
    )


# --- one_hot --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2])
def test_one_hot(n: int) -> None:
    module = function(
        "%i: !relax.tensor<[n, 3], i32>",
        "%on = relax.prim_value 2.5 : !relax.prim<f32>",
        "%off = relax.prim_value -1.0 : !relax.prim<f32>",
        "%one = relax.prim_value 1",
        "%zero = relax.prim_value 0",
        "%last = relax.one_hot %i, %on, %off {depth = 4}",
        "%first = relax.one_hot %i, %one, %zero {depth = 4, axis = 0}",
        "%out = relax.tuple(%last, %first)",
    )
    i = np.array([[0, 3, -1], [4, 2, 2]][:n], np.int32)  # -1 and 4 match nothing
    last, first = run(module, "main", i)  # pyright: ignore
    expected = np.full((n, 3, 4), -1.0, F32)
    for a in range(n):
        for b in range(3):
            if 0 <= i[a, b] < 4:
                expected[a, b, i[a, b]] = 2.5
    assert_exact(last, expected)
    assert_exact(first, np.moveaxis(expected == 2.5, -1, 0).astype(np.int64))


# --- index_tensor, index_put, slice_scatter ------------------------------------------------


@pytest.mark.parametrize("n", [1, 3])
def test_index_tensor_broadcasts_the_indices(n: int) -> None:
    module = function(
        "%x: !relax.tensor<[n, 4, 2], f32>, %rows: !relax.tensor<[3, 1], i64>, "
        "%cols: !relax.tensor<[2], i32>",
        "%t = relax.tuple(%rows, %cols)",
        "%pairs = relax.index_tensor %x, %t",
        "%r = relax.tuple(%rows)",
        "%firsts = relax.index_tensor %x, %r",
        "%out = relax.tuple(%pairs, %firsts)",
    )
    x = numbers(n, 4, 2)
    rows = np.array([[0], [n - 1], [0]], np.int64)
    cols = np.array([3, 1], np.int32)
    pairs, firsts = run(module, "main", x, rows, cols)  # pyright: ignore
    expected = np.empty((3, 2, 2), F32)
    for a in range(3):
        for b in range(2):
            expected[a, b] = x[rows[a, 0], cols[b]]
    assert_exact(pairs, expected)
    assert_exact(firsts, np.stack([[x[r] for r in row] for row in rows]))


@pytest.mark.parametrize("index", [-1, 4])
def test_index_tensor_rejects_indices_outside_the_axis(index: int) -> None:
    module = function(
        "%x: !relax.tensor<[4], f32>, %i: !relax.tensor<[1], i64>",
        "%t = relax.tuple(%i)",
        "%out = relax.index_tensor %x, %t",
    )
    with pytest.raises(RelaxRuntimeError, match=r"relax\.index_tensor: an index is outside axis 0"):
        run(module, "main", numbers(4), np.array([index], np.int64))


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put(accumulate: bool) -> None:
    module = function(
        "%x: !relax.tensor<[3, 4], f32>, %rows: !relax.tensor<[2, 1], ui8>, "
        "%cols: !relax.tensor<[3], i64>, %v: !relax.tensor<[6], f32>",
        "%t = relax.tuple(%rows, %cols)",
        f"%out = relax.index_put %x, %t, %v {{accumulate = {str(accumulate).lower()}}}",
    )
    x = numbers(3, 4)
    rows = np.array([[2], [0]], np.uint8)
    cols = np.array([1, -1, 1], np.int64)  # column 1 twice per row; -1 is column 3
    values = np.array([10, 20, 30, 40, 50, 60], F32)
    expected = x.copy()
    for k, (r, c) in enumerate((r, c) for r in rows[:, 0] for c in cols):
        if accumulate:
            expected[r, c % 4] += values[k]
        else:
            expected[r, c % 4] = values[k]
    assert_exact(run(module, "main", x, rows, cols, values), expected)


def test_index_put_with_one_index_tensor() -> None:
    module = function(
        "%x: !relax.tensor<[5], i32>, %i: !relax.tensor<[2, 2], i64>, %v: !relax.tensor<[2, 2], i32>",
        "%out = relax.index_put %x, %i, %v {accumulate = true}",
    )
    i = np.array([[0, 4], [4, -5]], np.int64)
    v = np.array([[1, 2], [3, 4]], np.int32)
    assert_exact(run(module, "main", numbers(5, dtype=np.int32), i, v), [5, 1, 2, 3, 9], np.int32)


@pytest.mark.parametrize(
    ("values", "message"),
    [(np.zeros(3, F32), "3 values for 2 indexed positions"), (None, "outside axis 0")],
)
def test_index_put_failures(values: np.ndarray | None, message: str) -> None:
    module = function(
        "%x: !relax.tensor<[4], f32>, %i: !relax.tensor<[2], i64>, %v: !relax.tensor<[m], f32>",
        "%out = relax.index_put %x, %i, %v",
    )
    index = np.array([0, 1 if values is not None else 4], np.int64)
    given = np.zeros(2, F32) if values is None else values
    with pytest.raises(RelaxRuntimeError, match=rf"relax\.index_put: .*{message}"):
        run(module, "main", numbers(4), index, given)


@pytest.mark.parametrize(("start", "end", "step"), [(0, 6, 2), (1, 4, 1), (3, 9, 3), (-4, 2, 2)])
def test_slice_scatter(start: int, end: int, step: int) -> None:
    length = (end - start + step - 1) // step
    module = function(
        f"%x: !relax.tensor<[2, 6], f32>, %s: !relax.tensor<[2, {length}], f32>",
        f"%a = relax.prim_value {start}",
        f"%b = relax.prim_value {end}",
        f"%c = relax.prim_value {step}",
        "%out = relax.slice_scatter %x, %s, %a, %b, %c {axis = 1}",
    )
    x = numbers(2, 6)
    src = -1 - numbers(2, length)
    expected = x.copy()
    for p in range(6):
        if start <= p < end and (p - start) % step == 0:
            # TVM clamps the position in src to the data's axis (only a negative
            # start reaches past it)
            expected[:, p] = src[:, min((p - start) // step, 5)]
    assert_exact(run(module, "main", x, src), expected)


def test_slice_scatter_checks_src_at_run_time() -> None:
    module = function(
        "%x: !relax.tensor<[n, 6], f32>, %s: !relax.tensor<[m, 3], f32>",
        "%a = relax.prim_value 0",
        "%b = relax.prim_value 3",
        "%c = relax.prim_value 1",
        "%out = relax.slice_scatter %x, %s, %a, %b, %c {axis = -1}",
    )
    with pytest.raises(RelaxRuntimeError, match=r"relax\.slice_scatter: src has shape \[3, 3\]"):
        run(module, "main", numbers(2, 6), numbers(3, 3))
