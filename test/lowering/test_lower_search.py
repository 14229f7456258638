"""Lowering of the search operators (where, argmax/argmin, bucketize): reference
interpreter vs the bundled interpreter vs the MLIR toolchain, at several values of the
symbolic size ``n``, with ties, NaNs and infinities."""

from __future__ import annotations

import numpy as np
import pytest
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    bools,
    floats,
    inputs,
    ints,
    lowered_main,
    lowering_error,
    operators_of,
    rng,
    sized,
    tensor,
)

from relax_dialect.ops import search
from relax_xdsl.lowering.interpreter import LoweredCheckError


def one(name: str, params: str, binding: str, *makers) -> Case:
    return Case(name, params, f"%r = {binding}", inputs(*makers))


def x(shape: str, dtype: str = "f32", name: str = "x") -> str:
    return f"%{name}: {tensor(shape, dtype)}"


def tied(*shape: int | str, dtype: str = "float32", nan: float = 0.2, salt: int = 5):
    """Few distinct values (many ties), NaN with probability ``nan``, some infinities."""

    def make(n: int) -> np.ndarray:
        generator = rng(n, salt)
        data = generator.integers(-2, 3, sized(shape, n)).astype(dtype)
        if np.dtype(dtype).kind == "f":
            draw = generator.random(data.shape)
            data[draw < nan] = np.nan
            data[(draw >= nan) & (draw < nan + 0.05)] = -np.inf
        return data

    return make


def constant(value: float, *shape: int | str, dtype: str = "float32"):
    return lambda n: np.full(sized(shape, n), value, dtype)


CASES = [
    # where
    one(
        "where",
        f"{x('n, 4', 'bool', 'c')}, {x('n, 4')}, {x('4', name='y')}",
        "relax.where %c, %x, %y",
        bools("n", 4),
        floats("n", 4),
        floats(4, salt=3),
    ),
    one(
        "where-broadcast-condition",
        f"{x('1, 4', 'bool', 'c')}, {x('n, 1', 'i32')}, {x('n, 4', 'i32', 'y')}",
        "relax.where %c, %x, %y",
        bools(1, 4),
        ints("n", 1),
        ints("n", 4, salt=4),
    ),
    one(
        "where-bool-value",
        f"{x('n', 'bool', 'c')}, {x('n')}, {x('n', 'bool', 'y')}",
        "relax.where %c, %x, %y",
        bools("n"),
        tied("n"),
        bools("n", salt=6),
    ),
    # argmax / argmin: ties, NaNs, -inf, every axis form
    one("argmax", x("n, 5"), "relax.argmax %x {axis = 1}", tied("n", 5)),
    one("argmin", x("n, 5"), "relax.argmin %x {axis = 1}", tied("n", 5)),
    one("argmax-axis0", x("n, 5"), "relax.argmax %x {axis = 0}", tied("n", 5, nan=0.1)),
    one(
        "argmin-keepdims",
        x("n, 5, 2"),
        "relax.argmin %x {axis = -2, keepdims = true}",
        tied("n", 5, 2),
    ),
    one("argmax-all", x("n, 5"), "relax.argmax %x", tied("n", 5, nan=0.05)),
    one("argmin-all-keepdims", x("3, n"), "relax.argmin %x {keepdims = true}", tied(3, "n")),
    one("argmax-rank0", x(""), "relax.argmax %x", floats()),
    one("argmax-no-nan", x("n, 5"), "relax.argmax %x {axis = 1}", tied("n", 5, nan=0.0)),
    one("argmax-all-minus-inf", x("n, 3"), "relax.argmax %x {axis = 1}", constant(-np.inf, "n", 3)),
    one("argmin-all-plus-inf", x("n, 3"), "relax.argmin %x {axis = 0}", constant(np.inf, "n", 3)),
    one("argmax-nan-last", x("2, n"), "relax.argmax %x {axis = 1}", constant(np.nan, 2, "n")),
    one("argmax-i32", x("n, 6", "i32"), "relax.argmax %x {axis = 1}", ints("n", 6, low=-2, high=2)),
    one(
        "argmax-i32-lowest",
        x("n", "i32"),
        "relax.argmax %x",
        constant(-(2**31), "n", dtype="int32"),
    ),
    one(
        "argmin-ui8",
        x("n, 4", "ui8"),
        "relax.argmin %x {axis = 1}",
        ints("n", 4, dtype="uint8", low=250, high=256),
    ),
    one(
        "argmax-ui8-zeros",
        x("n", "ui8"),
        "relax.argmax %x",
        constant(0, "n", dtype="uint8"),
    ),
    one(
        "argmax-f16", x("n, 4", "f16"), "relax.argmax %x {axis = 0}", tied("n", 4, dtype="float16")
    ),
    # bucketize
    one(
        "bucketize",
        f"{x('n, 3')}, {x('5', name='b')}",
        "relax.bucketize %x, %b",
        tied("n", 3),
        lambda n: np.array([-2, -1, 0, 0, 1.5], "float32"),
    ),
    one(
        "bucketize-right-i32",
        f"{x('n, 3')}, {x('4', name='b')}",
        "relax.bucketize %x, %b {right = true, out_int32 = true}",
        tied("n", 3),
        lambda n: np.array([-1, 0, 0, np.nan], "float32"),
    ),
    one(
        "bucketize-ints",
        f"{x('n', 'i64')}, {x('m', 'i64', 'b')}",
        "relax.bucketize %x, %b",
        ints("n", dtype="int64", low=-5, high=5),
        lambda n: np.arange(-3, n, dtype="int64"),
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(search.OPERATIONS, operators_of(CASES))


def test_argmax_of_bool_is_a_located_error() -> None:
    message = lowering_error(
        f"relax.function @main({x('n', 'bool')}) {{\n  %r = relax.argmax %x\n  relax.return %r\n}}\n"
    )
    assert message.startswith("test.mlir:2:") and "relax.argmax" in message, message


def test_argmax_of_an_empty_axis_fails_at_run_time() -> None:
    text = (
        f"relax.function @main({x('n, m')}) {{\n"
        "  %r = relax.argmax %x {axis = 1}\n  relax.return %r\n}\n"
    )
    main = lowered_main(text)
    with pytest.raises(LoweredCheckError, match=r"test.mlir:2:\d+: relax.argmax: .* empty"):
        main([np.zeros((2, 0), "float32")])
