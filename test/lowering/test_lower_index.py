"""Lowering of the indexing operators: reference interpreter vs the bundled interpreter
vs the MLIR toolchain, at several values of the symbolic size ``n``."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import load, native_available
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    floats,
    inputs,
    ints,
    lowered_main,
    lowering_error,
    operators_of,
    tensor,
)

from relax_dialect.dtype import DataType
from relax_dialect.ops import index
from relax_dialect.values import PrimValue
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.interpreter import LoweredCheckError

INT64 = DataType("int", 64)


def prim(value: int) -> PrimValue:
    return PrimValue(value, INT64)


def take(name: str, x: str, indices: str, attrs: str, *makers) -> Case:
    params = f"%x: {x}, %i: {indices}"
    return Case(name, params, f"%r = relax.take %x, %i{attrs}", inputs(*makers))


def bounded(*shape, high_of=lambda n: n, dtype="int64"):
    """Indices in range for an axis of length ``high_of(n)``."""
    return lambda n: ints(*shape, dtype=dtype, low=0, high=high_of(n))(n)


def tuples(**fields: list[int | str]) -> str:
    """Bindings of tuples of i64 prim values (``"n"`` and parameter names allowed)."""
    lines = []
    for name, values in fields.items():
        items = []
        for k, v in enumerate(values):
            if isinstance(v, str) and v.startswith("%"):
                items.append(v)
            else:
                lines.append(f"%{name}{k} = relax.prim_value {v} : !relax.prim<i64>")
                items.append(f"%{name}{k}")
        lines.append(f"%{name} = relax.tuple({', '.join(items)})")
    return "\n".join(lines)


def sliced(name: str, params: str, attrs: str = "", makers=(), **fields) -> Case:
    operands = ", ".join(f"%{f}" for f in fields)
    body = f"{tuples(**fields)}\n%r = relax.strided_slice %x, {operands}{attrs}"
    return Case(name, params, body, inputs(*makers))


X = f"%x: {tensor('n, 8, 6', 'f32')}"
XS = [floats("n", 8, 6)]
CASES = [
    take("take-axis0", tensor("n, 4", "f32"), tensor("3", "i64"), " {axis = 0}",
         floats("n", 4), bounded(3)),
    take("take-1d", tensor("n", "i32"), tensor("2, 2", "i32"), "",
         ints("n"), bounded(2, 2, dtype="int32")),
    take("take-clip", tensor("3, n", "f32"), tensor("2, 3", "i32"), ' {axis = 1, mode = "clip"}',
         floats(3, "n"), ints(2, 3, low=-9, high=9)),
    take("take-wrap", tensor("n, 2", "i64"), tensor("5", "i64"), ' {axis = -2, mode = "wrap"}',
         ints("n", 2, dtype="int64"), ints(5, dtype="int64", low=-12, high=12)),
    take("take-nan", tensor("n, 3", "f32"), tensor("4", "i32"), ' {axis = 0, mode = "nan"}',
         floats("n", 3), ints(4, low=-3, high=6)),
    take("take-ui8-clip", tensor("n", "f32"), tensor("4", "ui8"), ' {mode = "clip"}',
         floats("n"), ints(4, dtype="uint8", low=0, high=255)),
    take("take-scalar", tensor("4, n", "f32"), "!relax.prim<i64>", ' {axis = 0, mode = "wrap"}',
         floats(4, "n"), lambda n: prim(-n)),
    # strided_slice, as in test/filecheck/ops/index.mlir
    sliced("slice", X, "", XS, ax=[1], b=[1], e=[7]),
    sliced("slice-stride", X, "", XS, ax=[1], b=[1], e=[7], s=[2]),
    sliced("slice-backward", X, "", XS, ax=[1], b=[7], e=[1], s=[-2]),
    sliced("slice-negative", X, "", XS, ax=[-1], b=[-3], e=[100]),
    sliced("slice-backward-clamped", X, "", XS, ax=[1], b=[-1], e=[-9], s=[-1]),
    sliced("slice-two-axes", X, "", XS, ax=[0, 1], b=[0, 1], e=[2, -1]),
    sliced("slice-symbolic", X, "", XS, ax=[0, 2], b=[1, 0], e=["n", 6], s=[1, 3]),
    sliced("slice-symbolic-stride", X, "", XS, ax=[0], b=[0], e=["n"], s=[2]),
    sliced("slice-inbound", X, " {assume_inbound = true}", XS, ax=[1], b=[7], e=[1], s=[-2]),
    sliced(
        "slice-runtime",
        f"{X}, %p: !relax.prim<i64>, %q: !relax.prim<i64>",
        "",
        [*XS, lambda n: prim(-n), lambda n: prim(2 - n)],
        ax=[0, 1], b=["%p", 6], e=[5, 0], s=["%q", -1],
    ),
    Case(
        "dynamic_strided_slice",
        f"%x: {tensor('n, 5', 'f32')}, %b: {tensor('2', 'i64')}, %e: {tensor('2', 'i64')}, "
        f"%s: {tensor('2', 'i64')}",
        "%r = relax.dynamic_strided_slice %x, %b, %e, %s",
        lambda n: [
            floats("n", 5)(n),
            np.array([-1, 4], "int64"),
            np.array([-n - 3, 0], "int64"),
            np.array([-1, -2], "int64"),
        ],
    ),
    Case(
        "dynamic_strided_slice-forward",
        f"%x: {tensor('2, n, 3', 'i32')}, %b: {tensor('3', 'i64')}, %e: {tensor('3', 'i64')}, "
        f"%s: {tensor('3', 'i64')}",
        "%r = relax.dynamic_strided_slice %x, %b, %e, %s",
        lambda n: [
            ints(2, "n", 3)(n),
            np.array([0, 1, -2], "int64"),
            np.array([9, n, 3], "int64"),
            np.array([1, 2, 1], "int64"),
        ],
    ),
]  # fmt: skip

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(index.OPERATIONS, operators_of(CASES))


def test_unknown_axes_are_a_located_error() -> None:
    text = (
        f"relax.function @main(%x: {tensor('n, 4', 'f32')}, %t: !relax.tuple<prim<i64>>) {{\n"
        "  %r = relax.strided_slice %x, %t, %t, %t\n"
        f"  %c = relax.match_cast %r : {tensor('n, m', 'f32')}\n"
        "  relax.return %c\n}\n"
    )
    message = lowering_error(text)
    assert message.startswith("test.mlir:2:") and "relax.strided_slice" in message, message
    assert "the axes must be known constants" in message


def test_zero_run_time_stride_fails_at_run_time() -> None:
    main = lowered_main(FAMILY.cases["slice-runtime"].function())
    with pytest.raises(
        LoweredCheckError, match=r"test.mlir:\d+:\d+: relax.strided_slice: the stride"
    ):
        main([XS[0](2), -1, 0])


@pytest.mark.parametrize("backend", ["lowered", "mlir"])
@pytest.mark.parametrize("indices", [[0, 4], [-1, 0]])
def test_take_fast_checks_its_indices(backend: str, indices: list[int]) -> None:
    """As the reference: an index outside the axis fails a located check (native code
    read outside the tensor, or crashed, before)."""
    if backend == "mlir":
        native_available()
    text = (
        f"relax.function @main(%x: {tensor('n, 4', 'f32')}, %i: {tensor('2', 'i64')}) {{\n"
        "  %r = relax.take %x, %i {axis = 0}\n"
        "  relax.return %r\n}\n"
    )
    main = compile_function(load(text), "main", backend)
    x = np.ones((4, 4), np.float32)
    with pytest.raises(LoweredCheckError, match=r"test.mlir:2:3: relax.take: an index is outside"):
        main(x, np.array(indices, np.int64))
    np.testing.assert_array_equal(main(x, np.array([3, 0], np.int64)), x[[3, 0]])
