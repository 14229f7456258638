"""Lowering of the set operators (nonzero, unique; counted, allocated, then filled in
an ``scf.for``): reference interpreter vs the bundled interpreter vs the MLIR
toolchain, at several values of the symbolic size ``n``, with empty results, ties,
NaNs and signed zeros."""

from __future__ import annotations

import numpy as np
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    bools,
    inputs,
    ints,
    lowered_main,
    operators_of,
    rng,
    sized,
    tensor,
)

from relax_dialect.ops import set as set_ops


def sparse(*shape: int | str, dtype: str = "float32", salt: int = 4):
    """Mostly zeros (of both signs), some repeated values and NaNs."""

    def make(n: int) -> np.ndarray:
        choices = np.array([0.0, -0.0, 0.0, 0.0, 1.5, -2.0, np.nan, 1.5], dtype)
        return choices[rng(n, salt).integers(0, len(choices), sized(shape, n))]

    return make


def tied(*shape: int | str, salt: int = 5):
    """Few distinct values, NaNs and signed zeros: repeated slices, and slices with NaN."""

    def make(n: int) -> np.ndarray:
        choices = np.array([0.0, -0.0, 1.0, 1.0, 2.0, np.nan], "float32")
        return choices[rng(n, salt).integers(0, len(choices), sized(shape, n))]

    return make


def zeros(*shape: int | str, dtype: str = "float32"):
    return lambda n: np.zeros(sized(shape, n), dtype)


def unique(flags: str, axis: str = "") -> str:
    """``relax.unique %x`` with ``sorted, return_index, return_inverse, return_counts``
    given as ``t``/``f`` letters (``s`` for a run-time ``%s`` sorted flag)."""
    names = {"t": "%t", "f": "%f", "s": "%s"}
    operands = ", ".join(names[c] for c in flags)
    axes = "%a0 = relax.prim_value 0\n%a1 = relax.prim_value 1\n%am = relax.prim_value -1\n"
    return (
        f"%t = relax.prim_value true\n%f = relax.prim_value false\n{axes if axis else ''}"
        f"%r = relax.unique %x, {operands}{axis}"
    )


def x(shape: str, dtype: str = "f32") -> str:
    return f"%x: {tensor(shape, dtype)}"


CASES = [
    Case("nonzero-1d", x("n"), "%r = relax.nonzero %x", inputs(sparse("n"))),
    Case("nonzero-2d", x("n, 3"), "%r = relax.nonzero %x", inputs(sparse("n", 3))),
    Case(
        "nonzero-3d-i32",
        x("2, n, 4", "i32"),
        "%r = relax.nonzero %x",
        inputs(ints(2, "n", 4, low=-1, high=2)),
    ),
    Case("nonzero-bool", x("n, n", "bool"), "%r = relax.nonzero %x", inputs(bools("n", "n"))),
    Case("nonzero-none", x("n, 2"), "%r = relax.nonzero %x", inputs(zeros("n", 2))),
    Case(
        "nonzero-scalar",
        x(""),
        "%r = relax.nonzero %x",
        inputs(lambda n: np.array(n % 2, "float32")),
    ),
    Case("unique-sorted", x("n, 3"), unique("tfff"), inputs(sparse("n", 3))),
    Case("unique-sorted-all", x("n, 3"), unique("tttt"), inputs(sparse("n", 3))),
    Case("unique-unsorted-all", x("n, 3"), unique("fttt"), inputs(sparse("n", 3))),
    Case(
        "unique-unsorted-counts", x("n", "i32"), unique("fftt"), inputs(ints("n", low=-3, high=3))
    ),
    Case(
        "unique-runtime-sorted",
        f"{x('n', 'i32')}, %s: !relax.prim<bool>",
        unique("sttt"),
        lambda n: [ints("n", low=0, high=4)(n), bool(n % 2)],
    ),
    Case(
        "unique-i64-index",
        x("n, 2", "i64"),
        unique("ttff"),
        inputs(ints("n", 2, dtype="int64", low=-2, high=2)),
    ),
    Case("unique-bool", x("n", "bool"), unique("fttt"), inputs(bools("n"))),
    Case(
        "unique-axis0",
        x("n, 2", "i32"),
        unique("tttt", ", %a0"),
        inputs(ints("n", 2, low=0, high=2)),
    ),
    Case("unique-axis1-unsorted", x("2, n, 2"), unique("fttt", ", %a1"), inputs(tied(2, "n", 2))),
    Case("unique-axis-negative", x("n, 3"), unique("tttt", ", %am"), inputs(tied("n", 3))),
    Case("unique-scalar", x("", "i32"), unique("tttt"), inputs(lambda n: np.array(n, "int32"))),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(set_ops.OPERATIONS, operators_of(CASES))


def test_empty_input_gives_empty_results() -> None:
    """Nothing to count: a ``2 x 0`` nonzero and zero-length unique outputs."""
    text = "".join(
        Case(name, x("n, 2"), body, inputs()).function(name)
        for name, body in (("main", "%r = relax.nonzero %x"),)
    )
    [indices] = lowered_main(text)([np.zeros((0, 2), "float32")])
    assert indices.shape == (2, 0)
    text = Case("u", x("n"), unique("fttt"), inputs()).function()
    outputs = lowered_main(text)([np.zeros(0, "float32")])
    assert [o.shape for o in outputs] == [(0,), (0,), (0,), (0,)]


def test_large_inputs_natively() -> None:
    """Long inputs (not a power of two) against NumPy."""
    family = Family(
        [
            Case("nz", x("m, n"), "%r = relax.nonzero %x", inputs()),
            Case("u", x("n"), unique("fttt"), inputs()),
        ]
    )
    module = family.native_module()
    data = rng(5).integers(-3, 4, (7, 3001)).astype("float32") * (rng(6).random((7, 3001)) < 0.1)
    [indices] = module.call("nz", [data])
    np.testing.assert_array_equal(indices, np.stack(data.nonzero()))
    flat = data.reshape(-1)[:20000]
    values, first, inverse, counts = module.call("u", [flat])
    expected, first_expected, counts_expected = np.unique(
        flat, return_index=True, return_counts=True
    )
    order = np.argsort(first_expected)
    np.testing.assert_array_equal(values, expected[order])
    np.testing.assert_array_equal(first, first_expected[order])
    np.testing.assert_array_equal(counts, counts_expected[order])
    np.testing.assert_array_equal(values[inverse], flat)
