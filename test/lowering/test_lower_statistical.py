"""Lowering of the scans (cumsum, cumprod) and of median (the other reductions are in
``test_convert_operators.py``): reference interpreter vs the bundled interpreter vs the
MLIR toolchain, at several values of the symbolic size ``n``."""

from __future__ import annotations

import numpy as np
import pytest
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    bools,
    floats,
    inputs,
    ints,
    lowered_main,
    tensor,
)

from relax_xdsl.lowering.interpreter import LoweredCheckError


def one(name: str, params: str, binding: str, *makers) -> Case:
    return Case(name, params, f"%r = {binding}", inputs(*makers))


def x(shape: str, dtype: str = "f32") -> str:
    return f"%x: {tensor(shape, dtype)}"


def small(*shape: int | str):
    """Floats near 1, so that products stay finite and comparable."""
    make = floats(*shape)
    return lambda n: (1 + make(n) / 10).astype("float32")


CASES = [
    one("cumsum", x("n, 4"), "relax.cumsum %x {axis = 1}", floats("n", 4)),
    one("cumsum-axis0", x("n, 4"), "relax.cumsum %x {axis = 0}", floats("n", 4)),
    one("cumsum-flat", x("n, 3, 2"), "relax.cumsum %x", floats("n", 3, 2)),
    one("cumsum-rank0", x(""), "relax.cumsum %x", floats()),
    one(
        "cumsum-exclusive",
        x("2, n"),
        "relax.cumsum %x {axis = -1, exclusive = true}",
        floats(2, "n"),
    ),
    one(
        "cumsum-i32-wraps",
        x("n, 3", "i32"),
        "relax.cumsum %x {axis = 0}",
        ints("n", 3, low=2**30, high=2**31 - 1),
    ),
    one("cumsum-i32-to-f64", x("n", "i32"), "relax.cumsum %x {dtype = f64}", ints("n")),
    one("cumsum-bool", x("n, 2", "bool"), "relax.cumsum %x {axis = 0}", bools("n", 2)),
    one("cumsum-bool-to-i64", x("n", "bool"), "relax.cumsum %x {dtype = i64}", bools("n")),
    one("cumprod", x("n, 4"), "relax.cumprod %x {axis = 1}", small("n", 4)),
    one(
        "cumprod-exclusive-flat",
        x("n, 2"),
        "relax.cumprod %x {exclusive = true}",
        small("n", 2),
    ),
    one(
        "cumprod-i64",
        x("n, 3", "i64"),
        "relax.cumprod %x {axis = 0}",
        ints("n", 3, dtype="int64", low=-3, high=4),
    ),
    one(
        "cumprod-bool-exclusive", x("n", "bool"), "relax.cumprod %x {exclusive = true}", bools("n")
    ),
    one(
        "cumsum-f16",
        x("n, 2", "f16"),
        "relax.cumsum %x {axis = 0}",
        floats("n", 2, dtype="float16"),
    ),
]


def with_ties(*shape: int | str):
    """Floats drawn from a few values, NaN among them, so that ties and NaN occur."""

    def make(n: int) -> np.ndarray:
        values = np.array([-1.5, 0.0, 0.25, 2.0, np.nan], "float32")
        return values[ints(*shape, low=0, high=5, salt=3)(n)]

    return make


CASES += [
    one("median", x("n, 3, 2"), "relax.median %x", floats("n", 3, 2)),
    one("median-keepdims", x("n, 3"), "relax.median %x {keepdims = true}", floats("n", 3)),
    one("median-axis", x("n, 4"), "relax.median %x {axis = [0]}", with_ties("n", 4)),
    one(
        "median-axis-keepdims",
        x("3, n"),
        "relax.median %x {axis = [-1], keepdims = true}",
        with_ties(3, "n"),
    ),
    one("median-axes-i32", x("n, 3, 4", "i32"), "relax.median %x {axis = [2, 0]}", ints("n", 3, 4)),
    one("median-rank0", x(""), "relax.median %x", floats()),
    one(
        "median-fallback-tuple",
        "%x: !relax.tensor<ndim = 2, f32>",
        "relax.median %x {axis = [0, 1], keepdims = true}",
        floats("n", 2),
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_empty_axis() -> None:
    from convert_harness import compare_with_reference

    text = f"relax.function @main({x('n, m')}) {{\n  %r = relax.cumsum %x {{axis = 1}}\n  relax.return %r\n}}\n"
    compare_with_reference(text, [np.zeros((3, 0), "float32")])


def test_median_of_no_elements_fails_a_check() -> None:
    text = f"relax.function @main({x('n, 3')}) {{\n  %r = relax.median %x {{axis = [0]}}\n  relax.return %r\n}}\n"
    main = lowered_main(text)
    with pytest.raises(LoweredCheckError, match=r"relax\.median: the median of no elements"):
        main([np.zeros((0, 3), "float32")])
