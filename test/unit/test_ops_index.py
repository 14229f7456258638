"""The indexing operators in the interpreter, against NumPy indexing and slicing."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import execute, load

from relax_dialect.interpreter import RelaxRuntimeError, run


def grid(*shape: int, dtype: str = "float32") -> np.ndarray:
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def value_of(text: int | str, sizes: dict[str, int]) -> int:
    """A bound written as an integer or a symbolic expression (also valid Python)."""
    return int(eval(str(text), {}, sizes))


# --- take ------------------------------------------------------------------------


TAKE = """
relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[3, m], i32>) -> !relax.object {{
  %y = relax.take %x, %i {{axis = {axis}}}
  relax.return %y
}}
"""


@pytest.mark.parametrize("n", [1, 3, 6])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_along_an_axis(n: int, axis: int) -> None:
    data = grid(n, 4, 5)
    extent = data.shape[axis]
    indices = (np.arange(6, dtype=np.int32).reshape(3, 2) * 7) % extent
    result = execute(TAKE.format(axis=axis), data, indices, sizes={"n": n, "m": 2})
    expected = data[(slice(None),) * (axis % 3) + (indices,)]
    assert np.array_equal(result, expected)


def test_take_a_prim_value_index_drops_the_axis() -> None:
    text = """
relax.function @main(%x: !relax.tensor<[n], i32>, %p: !relax.prim<i64>) -> !relax.object {
  %y = relax.take %x, %p
  relax.return %y
}
"""
    result = execute(text, grid(5, dtype="int32"), 3, sizes={"n": 5})
    assert result.shape == () and result == 3


MODES = """
relax.function @main(%x: !relax.tensor<[2, n], f32>, %i: !relax.tensor<[m], i64>) -> !relax.object {{
  %y = relax.take %x, %i {{axis = 1, mode = "{mode}"}}
  relax.return %y
}}
"""
OUT_OF_BOUNDS = np.array([-1, 0, 6, 4, -8], dtype=np.int64)


@pytest.mark.parametrize(
    ("mode", "columns"),
    [
        ("wrap", [4, 0, 1, 4, 2]),
        ("clip", [0, 0, 4, 4, 0]),
        ("nan", [None, 0, None, 4, None]),
    ],
)
def test_take_out_of_bounds_modes(mode: str, columns: list[int | None]) -> None:
    data = grid(2, 5)
    result = execute(MODES.format(mode=mode), data, OUT_OF_BOUNDS, sizes={"n": 5, "m": 5})
    nan = np.full((2,), np.nan, dtype=np.float32)
    expected = np.stack([nan if c is None else data[:, c] for c in columns], axis=1)
    assert np.array_equal(result, expected, equal_nan=True)


def test_take_fast_mode_rejects_out_of_bounds_indices() -> None:
    module = load(MODES.format(mode="fast"))
    with pytest.raises(RelaxRuntimeError, match="index -1 is out of bounds for axis 1"):
        run(module, "main", grid(2, 5), OUT_OF_BOUNDS)


def test_take_nan_mode_needs_floats_for_out_of_bounds_indices() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[4]>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  %y = relax.take %x, %i {mode = "nan"}
  relax.return %y
}
""")
    assert run(module, "main", grid(4, dtype="int32"), np.array([3, 1])).tolist() == [3, 1]
    with pytest.raises(RelaxRuntimeError, match="mode nan needs floating-point data"):
        run(module, "main", grid(4, dtype="int32"), np.array([0, 4]))


def test_take_bool_data_and_unsigned_indices() -> None:
    text = """
relax.function @main(%x: !relax.tensor<[4], bool>, %i: !relax.tensor<[3], ui8>) -> !relax.object {
  %y = relax.take %x, %i {mode = "clip"}
  relax.return %y
}
"""
    data = np.array([True, False, False, True])
    result = execute(text, data, np.array([3, 255, 1], dtype=np.uint8), sizes={})
    assert result.tolist() == [True, True, False]


# --- strided_slice ---------------------------------------------------------------


def slice_text(
    dims: str,
    axes: list[int],
    begin: list[int | str],
    end: list[int | str],
    strides: list[int] | None = None,
    inbound: bool = False,
) -> str:
    """A module slicing its tensor parameter ``%x``, the bounds given as tuples of
    prim values (written as integers or symbolic expressions)."""
    lines = []
    tuples = {"a": axes, "b": begin, "e": end} | ({} if strides is None else {"s": strides})
    for name, values in tuples.items():
        lines += [f"%{name}{i} = relax.prim_value {v}" for i, v in enumerate(values)]
        fields = ", ".join(f"%{name}{i}" for i in range(len(values)))
        lines.append(f"%{name} = relax.tuple({fields})")
    operands = ", ".join(f"%{name}" for name in tuples)
    attributes = " {assume_inbound = true}" if inbound else ""
    body = "\n  ".join(lines)
    return f"""
relax.function @main(%x: !relax.tensor<{dims}, f32>) -> !relax.object {{
  {body}
  %y = relax.strided_slice %x, {operands}{attributes}
  relax.return %y
}}
"""


@pytest.mark.parametrize("n", [1, 4, 7])
@pytest.mark.parametrize(
    ("begin", "end", "stride"),
    [
        (0, "n", 1),
        (1, "n", 1),
        ("n - 1", "n", 1),
        (0, "n", 2),
        (-100, 100, 3),
        ("n", 0, -1),
        ("n - 1", -100, -1),
        (-1, "0 - n - 1", -2),
    ],
)
def test_strided_slice_symbolic_axis(n: int, begin: int | str, end: int | str, stride: int) -> None:
    data = grid(n, 3)
    sizes = {"n": n}
    text = slice_text("[n, 3]", [0], [begin], [end], [stride])
    result = execute(text, data, sizes=sizes)
    expected = data[value_of(begin, sizes) : value_of(end, sizes) : stride]
    assert np.array_equal(result, expected)


@pytest.mark.parametrize(
    ("begin", "end", "stride"),
    [(1, 7, 2), (7, 1, -2), (-1, -9, -1), (100, -100, -3), (0, 8, 3), (-2, 100, 1), (5, 5, 1)],
)
def test_strided_slice_static_axis(begin: int, end: int, stride: int) -> None:
    data = grid(2, 8)
    text = slice_text("[2, 8]", [-1], [begin], [end], [stride])
    assert np.array_equal(execute(text, data, sizes={}), data[:, begin:end:stride])


@pytest.mark.parametrize("n", [2, 5])
def test_strided_slice_several_axes_without_strides(n: int) -> None:
    data = grid(n, 6, 4)
    text = slice_text("[n, 6, 4]", [2, 0], [1, 1], [-1, "n"])
    assert np.array_equal(execute(text, data, sizes={"n": n}), data[1:n, :, 1:-1])


def test_strided_slice_without_axes_copies() -> None:
    data = grid(3, 2)
    assert np.array_equal(execute(slice_text("[3, 2]", [], [], []), data, sizes={}), data)


@pytest.mark.parametrize(("begin", "end", "stride"), [(1, 7, 2), (7, 0, -3), (0, 8, 1), (3, 3, 1)])
def test_strided_slice_assume_inbound(begin: int, end: int, stride: int) -> None:
    data = grid(2, 8)
    text = slice_text("[2, 8]", [1], [begin], [end], [stride], inbound=True)
    assert np.array_equal(execute(text, data, sizes={}), data[:, begin:end:stride])


def test_strided_slice_assume_inbound_rejects_bounds_outside_the_axis() -> None:
    module = load(slice_text("[2, n]", [1], [-2], ["n"], [1], inbound=True))
    with pytest.raises(RelaxRuntimeError, match="leaves an axis of extent 8"):
        run(module, "main", grid(2, 8))


# --- dynamic_strided_slice ---------------------------------------------------------


DYNAMIC = """
relax.function @main(%x: !relax.tensor<[n, 6], f32>, %b: !relax.tensor<[2], i64>, %e: !relax.tensor<[2], i64>, %s: !relax.tensor<[2], i64>) -> !relax.object {
  %y = relax.dynamic_strided_slice %x, %b, %e, %s
  relax.return %y
}
"""


@pytest.mark.parametrize("n", [1, 5])
@pytest.mark.parametrize(
    ("begin", "end", "strides"),
    [
        ([0, 0], [5, 6], [1, 1]),
        ([1, -1], [100, -7], [2, -1]),
        ([-2, 4], [-100, 1], [-1, -2]),
        ([3, 2], [1, 2], [1, 1]),
    ],
)
def test_dynamic_strided_slice(
    n: int, begin: list[int], end: list[int], strides: list[int]
) -> None:
    data = grid(n, 6)
    bounds = [np.array(v, dtype=np.int64) for v in (begin, end, strides)]
    result = execute(DYNAMIC, data, *bounds, sizes={"n": n})
    expected = data[begin[0] : end[0] : strides[0], begin[1] : end[1] : strides[1]]
    assert np.array_equal(result, expected)


def test_dynamic_strided_slice_rejects_a_zero_stride() -> None:
    bounds = [np.array(v, dtype=np.int64) for v in ([0, 0], [1, 1], [1, 0])]
    with pytest.raises(RelaxRuntimeError, match="slice step cannot be zero"):
        run(load(DYNAMIC), "main", grid(2, 6), *bounds)
