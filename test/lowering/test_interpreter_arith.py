"""arith in the lowered interpreter, on scalars and tensors, against Python's integers
(MLIR's wrapping, signed/unsigned semantics) and NumPy."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from interpreter_harness import binary, run, unary

from relax_xdsl.lowering.interpreter import LoweredExecutionError

WIDTH = 8
RNG = np.random.default_rng(7)
X = RNG.integers(-128, 128, 64).astype(np.int8)
Y = RNG.integers(-128, 128, 64).astype(np.int8)
Y[Y == 0] = 3
Y[(X == -128) & (Y == -1)] = 5
SHIFTS = RNG.integers(0, WIDTH, 64).astype(np.int8)


def signed(value: int) -> int:
    value &= (1 << WIDTH) - 1
    return value - (1 << WIDTH) if value >> (WIDTH - 1) else value


def unsigned(value: int) -> int:
    return value & ((1 << WIDTH) - 1)


def trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


INTEGER_OPS: dict[str, Callable[[int, int], int]] = {
    "addi": lambda a, b: a + b,
    "subi": lambda a, b: a - b,
    "muli": lambda a, b: a * b,
    "andi": lambda a, b: a & b,
    "ori": lambda a, b: a | b,
    "xori": lambda a, b: a ^ b,
    "divsi": trunc_div,
    "remsi": lambda a, b: a - b * trunc_div(a, b),
    "floordivsi": lambda a, b: a // b,
    "ceildivsi": lambda a, b: -(-a // b),
    "divui": lambda a, b: unsigned(a) // unsigned(b),
    "remui": lambda a, b: unsigned(a) % unsigned(b),
    "ceildivui": lambda a, b: -(-unsigned(a) // unsigned(b)),
    "maxsi": max,
    "minsi": min,
    "maxui": lambda a, b: a if unsigned(a) >= unsigned(b) else b,
    "minui": lambda a, b: a if unsigned(a) <= unsigned(b) else b,
}

SHIFT_OPS: dict[str, Callable[[int, int], int]] = {
    "shli": lambda a, s: a << s,
    "shrsi": lambda a, s: a >> s,
    "shrui": lambda a, s: unsigned(a) >> s,
}


def check_binary(op: str, reference: Callable[[int, int], int], x: np.ndarray, y: np.ndarray):
    source = binary(f"%v = arith.{op} %x, %y : i8", "i8", "i8")
    expected = np.array(
        [signed(reference(int(a), int(b))) for a, b in zip(x, y, strict=False)], np.int8
    )
    (tensor_result,) = run(source, "t", x, y, np.zeros_like(x))
    assert tensor_result.dtype == np.int8
    np.testing.assert_array_equal(tensor_result, expected)
    for a, b, want in list(zip(x, y, expected, strict=False))[:8]:
        (got,) = run(source, "f", int(a), int(b))
        assert got == want and got.dtype == np.int8, (op, a, b)


@pytest.mark.parametrize("op", sorted(INTEGER_OPS))
def test_integer_operations_wrap_and_read_signedness(op: str) -> None:
    check_binary(op, INTEGER_OPS[op], X, Y)


@pytest.mark.parametrize("op", sorted(SHIFT_OPS))
def test_shifts(op: str) -> None:
    check_binary(op, SHIFT_OPS[op], X, SHIFTS)


def test_i1_arithmetic_is_modulo_two_and_signed_true_is_minus_one() -> None:
    bools = np.array([False, True, False, True])
    other = np.array([False, False, True, True])
    for op, expected in [
        ("addi", bools ^ other),
        ("muli", bools & other),
        ("maxsi", bools & other),
        ("minsi", bools | other),
        ("maxui", bools | other),
    ]:
        (result,) = run(
            binary(f"%v = arith.{op} %x, %y : i1", "i1", "i1"), "t", bools, other, bools
        )
        np.testing.assert_array_equal(result, expected, err_msg=op)
    (result,) = run(
        unary("%v = arith.extsi %x : i1 to i32", "i1", "i32"), "t", bools, X[:4].astype(np.int32)
    )
    np.testing.assert_array_equal(result, [0, -1, 0, -1])
    (result,) = run(
        unary("%v = arith.sitofp %x : i1 to f32", "i1", "f32"), "t", bools, np.zeros(4, np.float32)
    )
    np.testing.assert_array_equal(result, [0.0, -1.0, 0.0, -1.0])


def test_division_by_zero_names_the_operation() -> None:
    source = binary("%v = arith.divsi %x, %y : i32", "i32", "i32")
    with pytest.raises(
        LoweredExecutionError, match=r"^arith\.divsi in @f failed: ZeroDivisionError"
    ):
        run(source, "f", 1, 0)


NAN = float("nan")
FLOATS_X = np.array([1.0, 2.0, NAN, 1.0, NAN, -0.0], np.float32)
FLOATS_Y = np.array([2.0, 2.0, 1.0, NAN, NAN, 0.0], np.float32)
CMPF = {
    "false": lambda x, y: np.zeros(x.shape, bool),
    "oeq": lambda x, y: x == y,
    "ogt": lambda x, y: x > y,
    "oge": lambda x, y: x >= y,
    "olt": lambda x, y: x < y,
    "ole": lambda x, y: x <= y,
    "one": lambda x, y: (x != y) & ~np.isnan(x) & ~np.isnan(y),
    "ord": lambda x, y: ~np.isnan(x) & ~np.isnan(y),
    "ueq": lambda x, y: (x == y) | np.isnan(x) | np.isnan(y),
    "ugt": lambda x, y: (x > y) | np.isnan(x) | np.isnan(y),
    "uge": lambda x, y: (x >= y) | np.isnan(x) | np.isnan(y),
    "ult": lambda x, y: (x < y) | np.isnan(x) | np.isnan(y),
    "ule": lambda x, y: (x <= y) | np.isnan(x) | np.isnan(y),
    "une": lambda x, y: x != y,
    "uno": lambda x, y: np.isnan(x) | np.isnan(y),
    "true": lambda x, y: np.ones(x.shape, bool),
}


@pytest.mark.parametrize("predicate", sorted(CMPF))
def test_cmpf_predicates(predicate: str) -> None:
    source = binary(f"%v = arith.cmpf {predicate}, %x, %y : f32", "f32", "i1")
    (result,) = run(source, "t", FLOATS_X, FLOATS_Y, np.zeros(6, bool))
    np.testing.assert_array_equal(result, CMPF[predicate](FLOATS_X, FLOATS_Y))
    (scalar,) = run(source, "f", 1.0, NAN)
    assert scalar == CMPF[predicate](np.array([1.0]), np.array([NAN]))[0]


CMPI = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b,
    "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b,
    "sge": lambda a, b: a >= b,
    "ult": lambda a, b: unsigned(a) < unsigned(b),
    "ule": lambda a, b: unsigned(a) <= unsigned(b),
    "ugt": lambda a, b: unsigned(a) > unsigned(b),
    "uge": lambda a, b: unsigned(a) >= unsigned(b),
}


@pytest.mark.parametrize("predicate", sorted(CMPI))
def test_cmpi_predicates(predicate: str) -> None:
    source = binary(f"%v = arith.cmpi {predicate}, %x, %y : i8", "i8", "i1")
    (result,) = run(source, "t", X, Y, np.zeros(64, bool))
    expected = [CMPI[predicate](int(a), int(b)) for a, b in zip(X, Y, strict=False)]
    np.testing.assert_array_equal(result, expected)


FLOAT_OPS = {
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "maximumf": np.maximum,
    "minimumf": np.minimum,
    "maxnumf": np.fmax,
    "minnumf": np.fmin,
}


@pytest.mark.parametrize("op", sorted(FLOAT_OPS))
@pytest.mark.parametrize("element", ["f16", "f32", "f64"])
def test_float_operations_keep_their_precision(op: str, element: str) -> None:
    dtype = np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[element])
    x, y = FLOATS_X.astype(dtype), FLOATS_Y.astype(dtype)
    source = binary(f"%v = arith.{op} %x, %y : {element}", element, element)
    (result,) = run(source, "t", x, y, np.zeros(6, dtype))
    assert result.dtype == dtype
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(result, FLOAT_OPS[op](x, y))
    (scalar,) = run(source, "f", 1.5, 0.25)
    assert scalar.dtype == dtype


CASTS = [
    ("arith.extsi %x : i8 to i32", "i8", "i32", X, X.astype(np.int32)),
    ("arith.extui %x : i8 to i32", "i8", "i32", X, X.view(np.uint8).astype(np.int32)),
    (
        "arith.trunci %x : i32 to i8",
        "i32",
        "i8",
        X.astype(np.int32) * 300,
        (X.astype(np.int32) * 300).astype(np.int8),
    ),
    ("arith.trunci %x : i8 to i1", "i8", "i1", X, (X & 1).astype(bool)),
    ("arith.sitofp %x : i8 to f32", "i8", "f32", X, X.astype(np.float32)),
    ("arith.uitofp %x : i8 to f64", "i8", "f64", X, X.view(np.uint8).astype(np.float64)),
    (
        "arith.fptosi %x : f32 to i16",
        "f32",
        "i16",
        X * np.float32(1.75),
        np.trunc(X * np.float32(1.75)).astype(np.int16),
    ),
    (
        "arith.fptoui %x : f32 to i8",
        "f32",
        "i8",
        np.abs(X) * np.float32(1.5),
        (np.abs(X) * np.float32(1.5)).astype(np.uint8).view(np.int8),
    ),
    ("arith.index_cast %x : i8 to index", "i8", "index", X, X.astype(np.int64)),
    (
        "arith.index_cast %x : index to i8",
        "index",
        "i8",
        X.astype(np.int64) * 3,
        (X.astype(np.int64) * 3).astype(np.int8),
    ),
    (
        "arith.extf %x : f16 to f64",
        "f16",
        "f64",
        FLOATS_X.astype(np.float16),
        FLOATS_X.astype(np.float64),
    ),
    (
        "arith.truncf %x : f64 to f16",
        "f64",
        "f16",
        FLOATS_X.astype(np.float64) / 3,
        (FLOATS_X.astype(np.float64) / 3).astype(np.float16),
    ),
    ("arith.bitcast %x : f32 to i32", "f32", "i32", FLOATS_X, FLOATS_X.view(np.int32)),
]


@pytest.mark.parametrize(
    ("body", "source", "target", "values", "expected"),
    CASTS,
    ids=[c[0].split()[0] + c[0].split()[-1] for c in CASTS],
)
def test_casts(
    body: str, source: str, target: str, values: np.ndarray, expected: np.ndarray
) -> None:
    kernel = unary(f"%v = {body}", source, target)
    (result,) = run(kernel, "t", values, np.zeros(values.shape, expected.dtype))
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)
    (scalar,) = run(kernel, "f", values[1].item())
    assert scalar.dtype == expected.dtype and (scalar == expected[1] or np.isnan(expected[1]))


def test_select_on_scalars_and_whole_tensors() -> None:
    """(Elementwise select, on a tensor condition, runs in linalg.generic bodies.)"""
    source = """
    func.func @f(%c: i1, %x: f32, %y: f32, %a: tensor<3xf32>, %b: tensor<3xf32>)
        -> (f32, tensor<3xf32>) {
      %s = arith.select %c, %x, %y : f32
      %w = arith.select %c, %a, %b : tensor<3xf32>
      func.return %s, %w : f32, tensor<3xf32>
    }
    """
    a, b = np.array([1, 2, 3], np.float32), np.array([4, 5, 6], np.float32)
    s, w = run(source, "f", False, 1.0, 2.0, a, b)
    assert s == 2.0 and s.dtype == np.float32
    np.testing.assert_array_equal(w, b)
    (selected,) = run(
        binary(
            "%c = arith.cmpf olt, %x, %y : f32\n%v = arith.select %c, %x, %y : f32", "f32", "f32"
        ),
        "t",
        a,
        b[::-1].copy(),
        a,
    )
    np.testing.assert_array_equal(selected, [1, 2, 3])


def test_constants() -> None:
    source = """
    func.func @f() -> (tensor<2x2xf16>, tensor<3xi1>, tensor<2xindex>, i8, i1, f64, tensor<2xi8>) {
      %a = arith.constant dense<1.5> : tensor<2x2xf16>
      %b = arith.constant dense<[true, false, true]> : tensor<3xi1>
      %c = arith.constant dense<[7, -2]> : tensor<2xindex>
      %d = arith.constant 255 : i8
      %e = arith.constant true
      %f = arith.constant 0.1 : f64
      %g = arith.constant dense<[[1, 2]]> : tensor<1x2xi8>
      %h = tensor.collapse_shape %g [[0, 1]] : tensor<1x2xi8> into tensor<2xi8>
      func.return %a, %b, %c, %d, %e, %f, %h
          : tensor<2x2xf16>, tensor<3xi1>, tensor<2xindex>, i8, i1, f64, tensor<2xi8>
    }
    """
    a, b, c, d, e, f, h = run(source, "f")
    assert a.dtype == np.float16 and a.shape == (2, 2) and (a == 1.5).all()
    np.testing.assert_array_equal(b, [True, False, True])
    assert c.dtype == np.int64 and list(c) == [7, -2]
    assert d == -1 and d.dtype == np.int8
    assert e == np.bool_(True) and f == 0.1
    assert h.dtype == np.int8 and list(h) == [1, 2]


def test_extended_arithmetic() -> None:
    source = """
    func.func @f(%x: i8, %y: i8) -> (i8, i1, i8, i8, i8, i8) {
      %s, %o = arith.addui_extended %x, %y : i8, i1
      %l, %h = arith.mului_extended %x, %y : i8
      %sl, %sh = arith.mulsi_extended %x, %y : i8
      func.return %s, %o, %l, %h, %sl, %sh : i8, i1, i8, i8, i8, i8
    }
    """
    s, o, low, high, signed_low, signed_high = run(source, "f", -56, 100)  # 200 and 100 unsigned
    assert (s, bool(o)) == (signed(300), True)
    assert (low, high) == (signed(20000 & 255), signed(20000 >> 8))
    assert (signed_low, signed_high) == (signed(-5600 & 255), signed((-5600 >> 8) & 255))


def test_remf_is_c_fmod() -> None:
    """``arith.remf`` (defined in ``lowering/upstream.py``; xDSL lacks it), on scalars and
    tensors, NaN and infinities included; natively too when the toolchain is present."""
    from interpreter_harness import DIALECTS
    from xdsl.context import Context
    from xdsl.parser import Parser

    from relax_xdsl.lowering.interpreter import run_lowered
    from relax_xdsl.lowering.toolchain import ToolchainMissing, compile_module
    from relax_xdsl.lowering.upstream import RemFOp

    source = binary("%v = arith.remf %x, %y : f32", "f32", "f32")
    context = Context()
    for dialect in DIALECTS:
        context.load_dialect(dialect)
    context.load_op(RemFOp)
    module = Parser(context, source).parse_module()
    x = np.array([5.5, -5.5, 5.5, -5.5, np.inf, 1.0, np.nan, 3.0, -0.0], np.float32)
    y = np.array([2.0, 2.0, -2.0, -2.0, 2.0, np.inf, 1.0, 0.0, -1.0], np.float32)
    with np.errstate(invalid="ignore"):
        expected = np.fmod(x, y)
    [tensor] = run_lowered(module, "t", [x, y, np.empty_like(x)])
    np.testing.assert_array_equal(tensor, expected)
    assert np.signbit(tensor[-1])  # the sign of the result is the sign of x
    scalars = [run_lowered(module, "f", [a, b])[0] for a, b in zip(x, y, strict=True)]
    np.testing.assert_array_equal(np.array(scalars, np.float32), expected)
    try:
        native = compile_module(source)
    except ToolchainMissing:
        return
    np.testing.assert_array_equal(native.call("t", [x, y, np.empty_like(x)])[0], expected)
