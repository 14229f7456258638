"""Lowering of memory views: reference interpreter vs the bundled interpreter vs
the MLIR toolchain, at several values of the symbolic size ``n``."""

from __future__ import annotations

import numpy as np
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    bools,
    floats,
    inputs,
    ints,
    lowering_error,
    operators_of,
    tensor,
)

from relax_dialect.ops import memory


def specials(n: int) -> np.ndarray:
    """Floats with NaN, infinities, a negative zero and a subnormal."""
    data = floats("n", 3)(n).reshape(-1)
    count = min(data.size, 5)
    data[:count] = np.array([np.nan, np.inf, -np.inf, -0.0, 1e-40], np.float32)[:count]
    return data.reshape(n, 3)


def case(name: str, params: str, body: str, *makers) -> Case:
    return Case(name, params, body, inputs(*makers))


CASES = [
    case(
        "f32-as-i32",
        f"%x: {tensor('n, 3', 'f32')}",
        "%r = relax.memory.view %x {dtype = i32}",
        specials,
    ),
    case(
        "i64-as-f64",
        f"%x: {tensor('n', 'i64')}",
        "%r = relax.memory.view %x {dtype = f64}",
        ints("n", dtype="int64", low=-(2**62), high=2**62),
    ),
    case(
        "ui16-as-f16",
        f"%x: {tensor('2, n', 'ui16')}",
        "%r = relax.memory.view %x {dtype = f16}",
        ints(2, "n", dtype="uint16", low=0, high=65536),
    ),
    case(
        "bool-as-ui8",
        f"%x: {tensor('n, 2', 'bool')}",
        "%r = relax.memory.view %x {dtype = ui8}",
        bools("n", 2),
    ),
    case(
        "reshaped-as-i32",
        f"%x: {tensor('n, 4', 'f32')}",
        "%s = relax.shape [2, n, 2]\n  %r = relax.memory.view %x, %s {dtype = i32}",
        floats("n", 4),
    ),
    case(
        "a-prefix",
        f"%x: {tensor('n, 4', 'i32')}",
        "%s = relax.shape [n, 3]\n  %r = relax.memory.view %x, %s",
        ints("n", 4),
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(memory.OPERATIONS, operators_of(CASES))


def test_a_view_changing_the_element_size_is_a_located_error() -> None:
    message = lowering_error(
        f"relax.function @main(%x: {tensor('2', 'f32')}) {{\n"
        "  %s = relax.shape [8]\n  %r = relax.memory.view %x, %s {dtype = ui8}\n"
        "  relax.return %r\n}\n"
    )
    assert message.startswith("test.mlir:3:"), message
    assert (
        "relax.memory.view: a view of f32 elements as ui8 ones (of another size) is not lowered"
        in message
    )
