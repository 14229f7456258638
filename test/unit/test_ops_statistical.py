"""The reductions and scans in the interpreter, against NumPy (and values TVM computes)."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import assert_exact, function, run_tensor
from xdsl.ir import Block

from relax_dialect.interpreter import RelaxRuntimeError, run
from relax_dialect.ops.statistical import CumsumOp, SumOp
from relax_dialect.prim_expr import Var
from relax_dialect.types import TensorType, struct_info_text


def run_op(param: str, binding: str, result: str, data: np.ndarray) -> np.ndarray:
    """``%r = <binding>`` of the parameter ``%x: <param>``, returned as ``result``
    (the interpreter checks the value against it)."""
    return run_tensor(function(f"%x: {param}", f"%r = {binding}", ret=result), data)


def random(*shape: int) -> np.ndarray:
    return np.random.default_rng(len(shape) + sum(shape)).standard_normal(shape).astype("float32")


# --- reductions -------------------------------------------------------------------

REFERENCE = {
    "sum": np.sum,
    "prod": np.prod,
    "max": np.max,
    "min": np.min,
    "mean": np.mean,
    "variance": np.var,
    "std": np.std,
}


@pytest.mark.parametrize("op", REFERENCE)
@pytest.mark.parametrize(
    ("axis", "keepdims"),
    [(None, False), (None, True), ((1,), False), ((-1, 0), True), ((), False), ((0, 1, 2), False)],
)
@pytest.mark.parametrize("n", [1, 3])
def test_float_reductions(op: str, axis: tuple[int, ...] | None, keepdims: bool, n: int) -> None:
    attributes = [] if axis is None else [f"axis = [{', '.join(map(str, axis))}]"]
    attributes.append(f"keepdims = {'true' if keepdims else 'false'}")
    data = random(n, 3, 4)
    result = run_op(
        "!relax.tensor<[n, 3, 4], f32>",
        f"relax.{op} %x {{{', '.join(attributes)}}}",
        "!relax.object",
        data,
    )
    expected = REFERENCE[op](data, axis=axis, keepdims=keepdims)
    assert result.dtype == np.float32 and result.shape == np.shape(expected)
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", [2, 5])
def test_symbolic_result_types(n: int) -> None:
    data = random(n, 3)
    mean = run_op(
        "!relax.tensor<[n, 3], f32>",
        "relax.mean %x {axis = [-1], keepdims = true}",
        "!relax.tensor<[n, 1], f32>",
        data,
    )
    np.testing.assert_allclose(mean, data.mean(axis=1, keepdims=True), rtol=1e-6)
    total = run_op("!relax.tensor<[n, 3], f32>", "relax.sum %x", "!relax.tensor<[], f32>", data)
    np.testing.assert_allclose(total, data.sum(), rtol=1e-5)


INTEGERS = np.array([[-7, 2, 4], [1, -1, 3]], np.int32)


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        # values computed by TVM 0.25 (legalized and built for llvm)
        ("sum", [-1, 3]),
        ("prod", [-56, -3]),
        ("max", [4, 3]),
        ("min", [-7, -1]),
        ("mean", [0, 1]),  # -1 / 3 truncates toward zero
        ("variance", [23, 2]),  # deviations from the truncated mean, 69 // 3 and 8 // 3
        ("std", [4, 1]),  # TVM computes sqrt(23), sqrt(2) in float; the type says i32
    ],
)
def test_integer_reductions(op: str, expected: list[int]) -> None:
    result = run_op(
        "!relax.tensor<[2, 3], i32>",
        f"relax.{op} %x {{axis = [1]}}",
        "!relax.tensor<[2], i32>",
        INTEGERS,
    )
    assert result.dtype == np.int32
    np.testing.assert_array_equal(result, expected)


def test_integer_mean_truncates_negative_quotients() -> None:
    data = np.array([-7, -8, 9, 5], np.int64)
    result = run_op("!relax.tensor<[4], i64>", "relax.mean %x", "!relax.tensor<[], i64>", data)
    assert int(result) == 0  # -1 / 4
    pairs = run_op(
        "!relax.tensor<[2, 2], i64>",
        "relax.mean %x {axis = [1]}",
        "!relax.tensor<[2], i64>",
        data.reshape(2, 2),
    )
    np.testing.assert_array_equal(pairs, [-7, 7])  # -15 / 2 and 14 / 2


def test_integer_sums_wrap_in_the_data_type() -> None:
    data = np.array([100, 100, 16], np.int8)
    total = run_op("!relax.tensor<[3], i8>", "relax.sum %x", "!relax.tensor<[], i8>", data)
    assert total.dtype == np.int8 and int(total) == -40  # 216 wraps to -40
    product = run_op("!relax.tensor<[3], i8>", "relax.prod %x", "!relax.tensor<[], i8>", data)
    assert int(product) == 0  # 160000 is a multiple of 256


def test_bool_reductions() -> None:
    data = np.array([[True, False], [True, True]])
    param, result = "!relax.tensor<[2, 2], bool>", "!relax.tensor<[2], bool>"
    cases = {"sum": [True, True], "prod": [False, True], "max": [True, True], "min": [False, True]}
    for op, expected in cases.items():
        value = run_op(param, f"relax.{op} %x {{axis = [1]}}", result, data)
        assert value.dtype == np.bool_
        np.testing.assert_array_equal(value, expected, err_msg=op)


@pytest.mark.parametrize("op", ["max", "min", "sum", "mean"])
def test_nan_propagates(op: str) -> None:
    data = np.array([[np.nan, 2.0, 4.0], [1.0, -1.0, 3.0]], np.float32)
    result = run_op(
        "!relax.tensor<[2, 3], f32>", f"relax.{op} %x {{axis = [1]}}", "!relax.object", data
    )
    assert np.isnan(result[0]) and not np.isnan(result[1])


def test_empty_reductions_give_the_identity() -> None:
    empty = np.zeros((0, 3), np.float32)
    expected = {"sum": 0.0, "prod": 1.0, "max": -np.inf, "min": np.inf}
    for op, identity in expected.items():
        value = run_op(
            "!relax.tensor<[n, 3], f32>", f"relax.{op} %x {{axis = [0]}}", "!relax.object", empty
        )
        np.testing.assert_array_equal(value, [identity] * 3, err_msg=op)
    mean = run_op("!relax.tensor<[n, 3], f32>", "relax.mean %x", "!relax.object", empty)
    assert np.isnan(mean)
    ints = np.zeros((0,), np.int16)
    low = run_op("!relax.tensor<[n], i16>", "relax.max %x", "!relax.tensor<[], i16>", ints)
    assert int(low) == -(2**15)


# --- scans ------------------------------------------------------------------------


def exclusive(cumulative: np.ndarray, identity: float, axis: int) -> np.ndarray:
    """Shift a cumulative result by one along ``axis``, starting from ``identity``."""
    first = np.full_like(np.take(cumulative, [0], axis=axis), identity)
    rest = np.take(cumulative, np.arange(cumulative.shape[axis] - 1), axis=axis)
    return np.concatenate([first, rest], axis=axis)


SCANS = {"cumsum": (np.cumsum, 0.0), "cumprod": (np.cumprod, 1.0)}


@pytest.mark.parametrize("op", SCANS)
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("is_exclusive", [False, True])
@pytest.mark.parametrize("n", [1, 4])
def test_scans(op: str, axis: int | None, is_exclusive: bool, n: int) -> None:
    attributes = [] if axis is None else [f"axis = {axis}"]
    attributes.append(f"exclusive = {'true' if is_exclusive else 'false'}")
    result_type = "!relax.tensor<[3 * n], f32>" if axis is None else "!relax.tensor<[n, 3], f32>"
    data = random(n, 3)
    result = run_op(
        "!relax.tensor<[n, 3], f32>",
        f"relax.{op} %x {{{', '.join(attributes)}}}",
        result_type,
        data,
    )
    scan, identity = SCANS[op]
    expected = scan(data, axis=axis)
    if is_exclusive:
        expected = exclusive(expected, identity, 0 if axis is None else axis)
    np.testing.assert_allclose(result, expected, rtol=1e-5)


def test_scan_dtype_accumulates_in_that_type() -> None:
    data = np.array([2**30, 2**30, 1], np.int32)
    wide = run_op(
        "!relax.tensor<[3], i32>", "relax.cumsum %x {dtype = i64}", "!relax.tensor<[3], i64>", data
    )
    np.testing.assert_array_equal(wide, [2**30, 2**31, 2**31 + 1])
    wrapped = run_op("!relax.tensor<[3], i32>", "relax.cumsum %x", "!relax.tensor<[3], i32>", data)
    np.testing.assert_array_equal(wrapped, [2**30, -(2**31), -(2**31) + 1])
    counts = run_op(
        "!relax.tensor<[2, 2], bool>",
        "relax.cumsum %x {axis = 1, dtype = i32}",
        "!relax.tensor<[2, 2], i32>",
        np.array([[True, True], [False, True]]),
    )
    np.testing.assert_array_equal(counts, [[1, 2], [0, 1]])


def test_exclusive_integer_product_and_empty_scan() -> None:
    data = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    # values computed by TVM 0.25
    product = run_op(
        "!relax.tensor<[2, 3], i32>",
        "relax.cumprod %x {axis = 0, exclusive = true}",
        "!relax.tensor<[2, 3], i32>",
        data,
    )
    np.testing.assert_array_equal(product, [[1, 1, 1], [1, 2, 3]])
    total = run_op(
        "!relax.tensor<[2, 3], i32>",
        "relax.cumsum %x {axis = 1, exclusive = true}",
        "!relax.tensor<[2, 3], i32>",
        data,
    )
    np.testing.assert_array_equal(total, [[0, 1, 3], [0, 4, 9]])
    empty = run_op(
        "!relax.tensor<[2, n], f32>",
        "relax.cumsum %x {axis = 1, exclusive = true}",
        "!relax.tensor<[2, n], f32>",
        np.zeros((2, 0), np.float32),
    )
    assert empty.shape == (2, 0)


# --- building operators from Python --------------------------------------------------


def test_build_infers_the_result_type() -> None:
    block = Block(arg_types=[TensorType([Var("n"), 3], "f32")])
    x = block.args[0]
    reduced = SumOp.build([x], axis=(1,), keepdims=True)
    assert struct_info_text(reduced.result_type) == "tensor<[n, 1], f32>"
    flat = CumsumOp.build([x], exclusive=True)
    assert struct_info_text(flat.result_type) == "tensor<[3 * n], f32>"
    assert flat.attr("exclusive") is True and flat.attr("axis") is None


# --- median ---------------------------------------------------------------------------


def lower_median(values: list[float]) -> tuple[float, int]:
    """The element at ``(n - 1) // 2`` of ``values`` sorted stably (NaN last), and its position."""
    order = sorted(range(len(values)), key=lambda k: (np.isnan(values[k]), values[k]))
    middle = order[(len(values) - 1) // 2]
    return values[middle], middle


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("n", [1, 4])
def test_median_along_one_axis(keepdims: bool, n: int) -> None:
    data = random(n, 3)
    data[0, 0] = data[n - 1, 2] = np.float32(0.5)  # ties keep their input order
    attributes = f"axis = [0], keepdims = {'true' if keepdims else 'false'}"
    module = function("%x: !relax.tensor<[n, 3], f32>", f"%r = relax.median %x {{{attributes}}}")
    values, indices = run(module, "main", data)  # pyright: ignore
    expected = [lower_median(data[:, c].tolist()) for c in range(3)]
    shape = (1, 3) if keepdims else (3,)
    assert_exact(values, np.array([v for v, _ in expected], np.float32).reshape(shape))
    assert_exact(indices, np.array([k for _, k in expected], np.int64).reshape(shape))


def test_median_over_several_axes_and_all() -> None:
    data = random(2, 3, 4)
    data[1, 1, 1] = np.nan  # NaN sorts last
    rows = run_op(
        "!relax.tensor<[2, 3, 4], f32>", "relax.median %x {axis = [0, 2]}", "!relax.object", data
    )
    expected = [lower_median(data[:, c, :].reshape(-1).tolist())[0] for c in range(3)]
    assert_exact(rows, np.array(expected, np.float32))
    every = run_op(
        "!relax.tensor<[2, 3, 4], f32>", "relax.median %x {keepdims = true}", "!relax.object", data
    )
    assert_exact(every, np.full((1, 1, 1), lower_median(data.reshape(-1).tolist())[0], np.float32))


def test_median_of_integers_with_the_fallback_tuple() -> None:
    data = np.array([[5, -2, 9, 1], [7, 7, 7, 0]], np.int32)
    module = function("%x: !relax.tensor<ndim = 2, i32>", "%r = relax.median %x {axis = [1]}")
    values, indices = run(module, "main", data)  # pyright: ignore
    assert_exact(values, np.array([1, 7], np.int32))
    assert_exact(indices, np.array([3, 0], np.int64))


def test_median_of_no_elements_fails() -> None:
    module = function("%x: !relax.tensor<[n, 3], f32>", "%r = relax.median %x {axis = [0]}")
    with pytest.raises(RelaxRuntimeError, match=r"relax\.median: the median of no elements"):
        run(module, "main", np.zeros((0, 3), np.float32))
