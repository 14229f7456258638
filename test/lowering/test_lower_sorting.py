"""Lowering of the sorting operators (sort, argsort, topk; a bitonic network): reference
interpreter vs the bundled interpreter vs the MLIR toolchain, at several values of the
symbolic size ``n`` (powers of two and not), with ties (stability), NaNs, signed zeros and
infinities."""

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
    operators_of,
    rng,
    sized,
    tensor,
)

from relax_dialect.ops import sorting
from relax_xdsl.lowering.interpreter import LoweredCheckError


def one(name: str, params: str, binding: str, *makers) -> Case:
    return Case(name, params, f"%r = {binding}", inputs(*makers))


def x(shape: str, dtype: str = "f32") -> str:
    return f"%x: {tensor(shape, dtype)}"


def tied(*shape: int | str, dtype: str = "float32", salt: int = 9):
    """Few distinct values (ties), NaNs, signed zeros and infinities."""

    def make(n: int) -> np.ndarray:
        generator = rng(n, salt)
        choices = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, 1.0, -1.0, 2.5], dtype)
        return choices[generator.integers(0, len(choices), sized(shape, n))]

    return make


SORTS = [
    ("sort", ""),
    ("sort-axis0", " {axis = 0}"),
    ("sort-descending", " {descending = true}"),
    ("sort-axis0-descending", " {axis = 0, descending = true}"),
]
ARGSORTS = [
    ("argsort", ""),
    ("argsort-descending-i64", " {axis = 0, descending = true, dtype = i64}"),
    ("argsort-void", " {axis = -1, dtype = void}"),
]
TOPKS = [
    ("topk", " {axis = 1, k = 2}"),
    ("topk-smallest", " {axis = 1, k = 3, largest = false}"),
    ("topk-indices-all", ' {axis = -1, k = 0, ret_type = "indices", dtype = i64}'),
    ("topk-k-above-length", " {axis = 1, k = 9}"),
]

CASES = [
    *(one(name, x("n, 7"), f"relax.sort %x{attrs}", tied("n", 7)) for name, attrs in SORTS),
    *(one(name, x("5, n"), f"relax.argsort %x{attrs}", tied(5, "n")) for name, attrs in ARGSORTS),
    *(one(name, x("n, 6"), f"relax.topk %x{attrs}", tied("n", 6)) for name, attrs in TOPKS),
    one("sort-1d", x("n"), "relax.sort %x", floats("n")),
    one("sort-rank3", x("2, n, 3"), "relax.sort %x {axis = 1}", tied(2, "n", 3)),
    one("sort-i32", x("n, 9", "i32"), "relax.sort %x", ints("n", 9, low=-3, high=3)),
    one(
        "argsort-ui8",
        x("n, 5", "ui8"),
        "relax.argsort %x {descending = true}",
        ints("n", 5, dtype="uint8", low=120, high=136),
    ),
    one("sort-bool", x("n, 4", "bool"), "relax.sort %x", bools("n", 4)),
    one("argsort-f16", x("n, 3", "f16"), "relax.argsort %x", tied("n", 3, dtype="float16")),
    one(
        "topk-i64-pow2",
        x("n, 8", "i64"),
        "relax.topk %x {k = 4}",
        ints("n", 8, dtype="int64", low=-2, high=2),
    ),
    one(
        "topk-values-axis0",
        x("6, n"),
        'relax.topk %x {axis = 0, k = 2, ret_type = "values"}',
        tied(6, "n"),
    ),
    one("topk-static", x("3, 5"), "relax.topk %x {k = 2}", tied(3, 5)),
    one("topk-symbolic-axis", x("4, n"), "relax.topk %x {k = 1}", tied(4, "n")),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(sorting.OPERATIONS, operators_of(CASES))


TOPK_SYMBOLIC = (
    f"relax.function @main({x('4, n')}) {{\n  %r = relax.topk %x {{k = 3}}\n  relax.return %r\n}}\n"
)


def test_topk_longer_than_a_symbolic_axis_fails_at_run_time() -> None:
    main = lowered_main(TOPK_SYMBOLIC)
    _, indices = main([np.arange(20, dtype="float32").reshape(4, 5)])
    np.testing.assert_array_equal(indices, np.tile([4, 3, 2], (4, 1)))
    with pytest.raises(LoweredCheckError, match=r"test.mlir:2:\d+: relax.topk: k = 3 exceeds"):
        main([np.zeros((4, 2), "float32")])


def test_large_sort_natively() -> None:
    """A long axis (not a power of two) through the network, against NumPy's stable sort."""
    family = Family([Case("big", x("m, n"), "%r = relax.argsort %x {dtype = i64}", lambda n: [])])
    module = family.native_module()
    data = rng(3).integers(0, 50, (3, 3000)).astype("float32")
    [order] = module.call("big", [data])
    np.testing.assert_array_equal(order, np.argsort(data, axis=-1, kind="stable"))
