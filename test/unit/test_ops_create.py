"""The creation operators in the interpreter, against NumPy written here."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import execute, load

from relax_dialect.interpreter import RelaxRuntimeError, run

# --- filled tensors ----------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize(("op", "dtype", "fill"), [("zeros", "f32", 0), ("ones", "i8", 1)])
def test_zeros_and_ones(n: int, op: str, dtype: str, fill: int) -> None:
    text = f"""
relax.function @main(%s: !relax.shape<[n, 3]>) -> !relax.object {{
  %y = relax.{op} %s {{dtype = {dtype}}}
  relax.return %y
}}
"""
    result = execute(text, (n, 3), sizes={"n": n})
    assert np.array_equal(result, np.full((n, 3), fill))


def test_ones_from_a_shape_literal() -> None:
    text = """
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  %s = relax.shape [2, n * 2]
  %y = relax.ones %s {dtype = bool}
  relax.return %y
}
"""
    result = execute(text, np.zeros(3, np.float32), sizes={"n": 3})
    assert result.shape == (2, 6) and result.all()


FULL = """
relax.function @main(%s: !relax.shape<[n, 2]>, %c: !relax.tensor<[], {fill}>) -> !relax.object {{
  %y = relax.full %s, %c{attributes}
  relax.return %y
}}
"""


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize(
    ("fill", "value", "attributes", "expected"),
    [
        ("f32", 2.5, "", 2.5),
        ("f32", 2.7, " {dtype = i32}", 2),
        ("f32", -2.7, " {dtype = i32}", -2),
        ("i64", 3, " {dtype = f16}", 3.0),
        ("f32", 0.5, " {dtype = bool}", True),
    ],
)
def test_full(n: int, fill: str, value: float, attributes: str, expected: float) -> None:
    text = FULL.format(fill=fill, attributes=attributes)
    scalar = np.array(value, dtype={"f32": np.float32, "i64": np.int64}[fill])
    result = execute(text, (n, 2), scalar, sizes={"n": n})
    assert result.shape == (n, 2) and (result == expected).all()


@pytest.mark.parametrize("n", [2, 5])
def test_like_operators(n: int) -> None:
    x = np.arange(n * 3, dtype=np.int32).reshape(n, 3)
    text = """
relax.function @main(%x: !relax.tensor<[n, 3], i32>) -> !relax.object {
  %a = relax.zeros_like %x
  %b = relax.ones_like %x {dtype = f16}
  %y = relax.tuple(%a, %b)
  relax.return %y
}
"""
    zeros, ones = run(load(text), "main", x)  # pyright: ignore[reportGeneralTypeIssues]
    assert zeros.dtype == np.int32 and np.array_equal(zeros, np.zeros((n, 3)))
    assert ones.dtype == np.float16 and np.array_equal(ones, np.ones((n, 3)))


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [("", np.full((3, 2), -1, np.int32)), (" {dtype = f32}", np.full((3, 2), -1.5, np.float32))],
)
def test_full_like_takes_the_data_type_of_x(attributes: str, expected: np.ndarray) -> None:
    text = f"""
relax.function @main(%x: !relax.tensor<[n, 2], i32>, %c: !relax.tensor<[], f32>) -> !relax.object {{
  %y = relax.full_like %x, %c{attributes}
  relax.return %y
}}
"""
    x = np.zeros((3, 2), np.int32)
    result = execute(text, x, np.array(-1.5, np.float32), sizes={"n": 3})
    assert result.dtype == expected.dtype and np.array_equal(result, expected)


# --- identity matrices ---------------------------------------------------------------


def identity(rows: int, cols: int, k: int) -> np.ndarray:
    row, col = np.indices((rows, cols))
    return (col - row == k).astype(np.float32)


@pytest.mark.parametrize("n", [1, 3, 4])
@pytest.mark.parametrize("k", [-2, 0, 1, 5])
def test_eye(n: int, k: int) -> None:
    text = """
relax.function @main(%pn: !relax.prim<i64, n>, %k: !relax.prim<i64>) -> !relax.object {
  %three = relax.prim_value 3
  %y = relax.eye %pn, %three, %k
  relax.return %y
}
"""
    result = execute(text, n, k, sizes={"n": n})
    assert np.array_equal(result, identity(n, 3, k))


@pytest.mark.parametrize(("shape", "k"), [((2, 5), 1), ((4, 3), -1), ((3, 3), 0)])
def test_eye_like(shape: tuple[int, int], k: int) -> None:
    text = """
relax.function @main(%x: !relax.tensor<[n, m], f16>, %k: !relax.prim<i64>) -> !relax.object {
  %y = relax.eye_like %x, %k {dtype = i32}
  relax.return %y
}
"""
    result = execute(
        text, np.zeros(shape, np.float16), k, sizes=dict(zip("nm", shape, strict=True))
    )
    assert result.dtype == np.int32 and np.array_equal(result, identity(*shape, k))


def test_eye_like_of_unknown_rank_needs_a_matrix() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<f32>, %k: !relax.prim<i64>) -> !relax.object {
  %y = relax.eye_like %x, %k
  relax.return %y
}
""")
    with pytest.raises(RelaxRuntimeError, match="the data must be 2-D, got 3 dimensions"):
        run(module, "main", np.zeros((2, 2, 2), np.float32), 0)


# --- ranges --------------------------------------------------------------------------


ARANGE = """
relax.function @main(%pn: !relax.prim<i64, n>) -> !relax.object {{
  %start = relax.prim_value {start}
  %end = relax.prim_value {end}
  %step = relax.prim_value {step}
  %y = relax.arange %start, %end, %step{attributes}
  relax.return %y
}}
"""


@pytest.mark.parametrize("n", [0, 1, 7, 10])
@pytest.mark.parametrize(
    ("start", "end", "step"),
    [(0, "n", 1), (0, "n", 3), ("n", 0, -1), ("n", -5, -2), (2, "n + 2", 2), ("0 - n", "n", 4)],
)
def test_arange_integers(n: int, start: int | str, end: int | str, step: int) -> None:
    text = ARANGE.format(start=start, end=end, step=step, attributes="")
    result = execute(text, n, sizes={"n": n})
    first, last = (int(eval(str(v), {}, {"n": n})) for v in (start, end))
    assert np.array_equal(result, list(range(first, last, step)))
    assert result.dtype == np.int64


def test_arange_integers_with_a_symbolic_step() -> None:
    text = ARANGE.format(start=1, end=20, step="n", attributes=" {dtype = i32}")
    for n in (1, 4, 25):
        result = execute(text, n, sizes={"n": n})
        assert result.dtype == np.int32 and result.tolist() == list(range(1, 20, n))


# Computed by TVM 0.25 (LegalizeOps folds a range of constants with NumPy).
@pytest.mark.parametrize(
    ("start", "end", "step", "attributes", "expected"),
    [
        (
            "0.5",
            "3.0",
            "0.7",
            "",
            [0.5, 1.2000000476837158, 1.9000000953674316, 2.6000001430511475],
        ),
        ("3.0", "0", "-0.75", "", [3.0, 2.25, 1.5, 0.75]),
        ("0", "1", "0.25", "", [0.0, 0.25, 0.5, 0.75]),
        ("0.1", "1.0", "0.3", "", [0.10000000149011612, 0.4000000059604645, 0.7000000476837158]),
        ("0.5", "4.0", "1.5", " {dtype = i32}", [0, 2, 4]),
        ("1", "2", "0.3", " {dtype = f16}", [1.0, 1.2998046875, 1.599609375, 1.8994140625]),
    ],
)
def test_arange_constant_floats(
    start: str, end: str, step: str, attributes: str, expected: list[float]
) -> None:
    text = ARANGE.format(start=start, end=end, step=step, attributes=attributes)
    result = execute(text, 0, sizes={})
    assert result.tolist() == expected


# Computed by TVM 0.25 (relax.build, LLVM): start + step * i in the bounds' type.
@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, []),
        (3, [0.5, 1.2000000476837158, 1.899999976158142, 2.5999999046325684]),
        (
            5,
            [
                0.5,
                1.2000000476837158,
                1.899999976158142,
                2.5999999046325684,
                3.299999952316284,
                4.0,
                4.699999809265137,
            ],
        ),
    ],
)
def test_arange_symbolic_floats(n: int, expected: list[float]) -> None:
    text = ARANGE.format(start="0.5", end="n", step="0.7", attributes="")
    assert execute(text, n, sizes={"n": n}).tolist() == expected


@pytest.mark.parametrize("n", [0, 3, 5])
def test_arange_symbolic_bounds_of_constant_extent(n: int) -> None:
    text = ARANGE.format(start="n", end="n + 4", step="1.5", attributes=" {dtype = i32}")
    assert execute(text, n, sizes={"n": n}).tolist() == [n, n + 1, n + 3]


def test_arange_backwards_range_fails_at_run_time() -> None:
    module = load(ARANGE.format(start="n", end=3, step=1, attributes=""))
    assert run(module, "main", 1).tolist() == [1, 2]
    with pytest.raises(RelaxRuntimeError, match="from 5 to 3 with step 1 has negative length -2"):
        run(module, "main", 5)


# --- triangular parts ------------------------------------------------------------------


TRIANGLE = """
relax.function @main(%x: !relax.tensor<[b, n, m], {dtype}>, %k: !relax.prim<{kind}>) -> !relax.object {{
  %y = relax.{op} %x, %k
  relax.return %y
}}
"""


@pytest.mark.parametrize("op", ["tril", "triu"])
@pytest.mark.parametrize("k", [-1, 0, 2, -5])
@pytest.mark.parametrize("shape", [(2, 3, 4), (1, 4, 2)])
def test_triangular_parts(op: str, k: int, shape: tuple[int, int, int]) -> None:
    x = np.arange(1, np.prod(shape) + 1, dtype=np.int32).reshape(shape)
    text = TRIANGLE.format(op=op, dtype="i32", kind="i64")
    result = execute(text, x, k, sizes=dict(zip("bnm", shape, strict=True)))
    row, col = np.indices(shape[1:])
    keep = col - row <= k if op == "tril" else col - row >= k
    assert np.array_equal(result, np.where(keep, x, 0))


@pytest.mark.parametrize(
    ("op", "expected"), [("tril", [[1, 0], [1, 1]]), ("triu", [[1, 1], [0, 1]])]
)
def test_triangular_parts_truncate_a_float_offset_and_keep_bools(
    op: str, expected: list[list[int]]
) -> None:
    text = TRIANGLE.format(op=op, dtype="bool", kind="f32")
    x = np.ones((1, 2, 2), np.bool_)
    result = execute(text, x, 0.9, sizes={"b": 1, "n": 2, "m": 2})
    assert result.dtype == np.bool_ and np.array_equal(result[0], expected)
