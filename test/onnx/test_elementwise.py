"""Elementwise converters (math, logic, comparisons, bit operations, variadic,
``Clip``, ``Where``) against onnxruntime, on the reference and lowered backends."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_check import check, single

RNG = np.random.default_rng(1)


def floats(*shape: int, low: float = -2.0, high: float = 2.0) -> np.ndarray:
    return RNG.uniform(low, high, shape).astype(np.float32)


def ints(*shape: int, low: int = -9, high: int = 9, dtype: type = np.int32) -> np.ndarray:
    return RNG.integers(low, high, shape).astype(dtype)


def bools(*shape: int) -> np.ndarray:
    return RNG.integers(0, 2, shape).astype(bool)


UNARY_FLOAT = [
    "Abs", "Neg", "Exp", "Sin", "Cos", "Tan", "Atan", "Sinh", "Cosh", "Asinh", "Tanh",
    "Sigmoid", "Erf", "Floor", "Ceil", "Round", "Sign", "Relu", "Reciprocal",
]  # fmt: skip


@pytest.mark.parametrize("op_type", UNARY_FLOAT)
def test_unary_float(op_type: str) -> None:
    x = floats(2, 3)
    check(single(op_type, {"x": x}), {"x": x})


@pytest.mark.parametrize(
    ("op_type", "x"),
    [
        ("Sqrt", floats(4, low=0.1)),
        ("Log", floats(4, low=0.1)),
        ("Asin", floats(4, low=-0.9, high=0.9)),
        ("Acos", floats(4, low=-0.9, high=0.9)),
        ("Acosh", floats(4, low=1.1, high=3)),
        ("Atanh", floats(4, low=-0.9, high=0.9)),
        ("Abs", ints(5)),
        ("Neg", ints(5, dtype=np.int64)),
        ("Sign", ints(5)),
        ("Not", bools(2, 3)),
        ("BitwiseNot", ints(5, dtype=np.uint8, low=0, high=255)),
        ("IsNaN", np.array([1.0, np.nan, np.inf], np.float32)),
    ],
)
def test_unary_domains_and_types(op_type: str, x: np.ndarray) -> None:
    check(single(op_type, {"x": x}, opset=18), {"x": x})


@pytest.mark.parametrize(("positive", "negative"), [(1, 1), (1, 0), (0, 1), (0, 0)])
def test_is_inf_by_sign(positive: int, negative: int) -> None:
    x = np.array([1.0, np.inf, -np.inf, np.nan], np.float32)
    m = single("IsInf", {"x": x}, detect_positive=positive, detect_negative=negative)
    check(m, {"x": x})


BINARY = [
    ("Add", floats(2, 3), floats(3)),
    ("Sub", floats(2, 1), floats(1, 3)),
    ("Mul", ints(2, 3), ints(2, 3)),
    ("Div", floats(2, 3), floats(2, 3, low=0.5)),
    ("Div", ints(6, low=-20, high=20), ints(6, low=1, high=5)),
    ("Pow", floats(4, low=0.1), floats(4)),
    ("Pow", floats(4, low=0.1), ints(4, low=0, high=3)),
    ("Equal", ints(2, 3, low=0, high=3), ints(3, low=0, high=3)),
    ("Less", floats(2, 3), floats(2, 3)),
    ("LessOrEqual", ints(4, low=0, high=3), ints(4, low=0, high=3)),
    ("Greater", floats(2, 3), floats(1)),
    ("GreaterOrEqual", ints(4, low=0, high=3), ints(4, low=0, high=3)),
    ("And", bools(2, 3), bools(3)),
    ("Or", bools(2, 3), bools(2, 3)),
    ("Xor", bools(4), bools(4)),
    ("BitwiseAnd", ints(4, dtype=np.int64), ints(4, dtype=np.int64)),
    ("BitwiseOr", ints(4), ints(4)),
    (
        "BitwiseXor",
        ints(4, low=0, high=200, dtype=np.uint8),
        ints(4, low=0, high=200, dtype=np.uint8),
    ),
]


@pytest.mark.parametrize(
    ("op_type", "a", "b"), BINARY, ids=[f"{o}-{a.dtype}" for o, a, _ in BINARY]
)
def test_binary_broadcasting(op_type: str, a: np.ndarray, b: np.ndarray) -> None:
    check(single(op_type, {"a": a, "b": b}, opset=18), {"a": a, "b": b})


@pytest.mark.parametrize("fmod", [0, 1])
def test_mod_takes_the_sign_of_the_divisor_or_the_dividend(fmod: int) -> None:
    a, b = ints(8, low=-20, high=20), ints(8, low=1, high=6) * np.array([1, -1] * 4, np.int32)
    check(single("Mod", {"a": a, "b": b}, fmod=fmod), {"a": a, "b": b})


def test_float_mod_is_fmod() -> None:
    a, b = floats(6, low=-5, high=5), floats(6, low=0.5, high=2)
    check(single("Mod", {"a": a, "b": b}, fmod=1), {"a": a, "b": b})


@pytest.mark.parametrize("direction", ["LEFT", "RIGHT"])
def test_bit_shift(direction: str) -> None:
    a = np.array([1, 16, 255, 7], np.uint32)
    b = np.array([1, 2, 3, 0], np.uint32)
    check(single("BitShift", {"a": a, "b": b}, direction=direction), {"a": a, "b": b})


def test_where_broadcasts_three_ways() -> None:
    c, a, b = bools(2, 1, 3), floats(4, 1), floats(3)
    check(single("Where", {"c": c, "a": a, "b": b}), {"c": c, "a": a, "b": b})


@pytest.mark.parametrize("op_type", ["Sum", "Mean", "Max", "Min"])
@pytest.mark.parametrize("count", [1, 3])
def test_variadic(op_type: str, count: int) -> None:
    feeds = {f"x{i}": floats(*([2, 3] if i % 2 == 0 else [3])) for i in range(count)}
    check(single(op_type, feeds), feeds)


def test_clip_attributes_before_opset_11() -> None:
    x = floats(10, low=-3, high=3)
    check(single("Clip", {"x": x}, opset=10, min=-1.0, max=0.5), {"x": x})
    check(single("Clip", {"x": x}, opset=10, max=0.5), {"x": x})


@pytest.mark.parametrize(
    "bounds",
    [
        {"lo": np.float32(0), "hi": np.float32(6)},  # ReLU6, as MobileNetV2 writes it
        {"lo": np.float32(1)},
        {"hi": np.float32(-1)},
        {"lo": np.float32(2), "hi": np.float32(1)},  # min > max: max wins
        {},
    ],
)
def test_clip_inputs_from_opset_11(bounds: dict[str, np.ndarray]) -> None:
    x = floats(10, low=-3, high=8)
    names = ["x", "lo" if "lo" in bounds else "", "hi" if "hi" in bounds else ""]
    while names[-1] == "":
        names.pop()
    check(single("Clip", {"x": x}, opset=13, initializers=bounds, inputs=names), {"x": x})


def test_clip_with_run_time_bounds_and_integers() -> None:
    x, lo, hi = ints(10, low=-10, high=10), np.array(-3, np.int32), np.array(4, np.int32)
    check(single("Clip", {"x": x, "lo": lo, "hi": hi}, opset=13), {"x": x, "lo": lo, "hi": hi})


def test_integer_power_and_float_remainder_with_the_divisor_sign() -> None:
    base, exponent = np.array([2, -3, 5], np.int64), np.array([10, 3, 0], np.int64)
    check(single("Pow", {"a": base, "b": exponent}, opset=15), {"a": base, "b": exponent})
    a = np.array([5.0, -5.0, 3.0, -0.0, 7.5], np.float32)
    b = np.array([np.inf, np.inf, -2.0, 2.0, 2.0], np.float32)
    check(single("Mod", {"a": a, "b": b}, opset=28), {"a": a, "b": b}, [np.mod(a, b)])
