"""Operator lowerings (binary, unary, ternary, data type, linear algebra, statistical):
each lowered program is accepted by ``mlir-opt-22`` and computes what the reference
interpreter computes, at several values of the symbolic sizes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from convert_harness import (
    assert_accepted,
    compare_with_reference,
    load,
    lower,
    native_available,
)

from relax_dialect.dtype import DataType
from relax_dialect.interpreter import run
from relax_dialect.ops import binary, statistical, unary
from relax_xdsl.lowering.backends import compile_function

pytestmark = pytest.mark.heavy

SIZES = (1, 3, 6)
"""Values of the symbolic size ``n`` the lowered programs run with."""

Inputs = Callable[[int], list[np.ndarray]]


@dataclass(frozen=True)
class Case:
    """A one-operator program: parameters, the binding and the inputs for size ``n``."""

    name: str
    params: str
    binding: str
    inputs: Inputs

    def text(self) -> str:
        return (
            f"relax.function @main({self.params}) {{\n  %r = {self.binding}\n"
            "  relax.return %r\n}\n"
        )


def rng(n: int) -> np.random.Generator:
    return np.random.default_rng(n)


def floats(*shape: int | str, dtype: str = "float32", away_from_zero: bool = False):
    """Inputs maker: standard normal data of ``shape`` (``"n"`` is the size)."""

    def make(n: int) -> np.ndarray:
        sizes = [n if s == "n" else s for s in shape]
        data = rng(n + len(shape)).standard_normal(sizes) * 3
        if away_from_zero:
            data = np.where(np.abs(data) < 0.5, 1.5, data)
        return data.astype(dtype)

    return make


def ints(*shape: int | str, dtype: str = "int32", low: int = -20, high: int = 20, nonzero=False):
    def make(n: int) -> np.ndarray:
        sizes = [n if s == "n" else s for s in shape]
        data = rng(n + 7).integers(low, high, sizes)
        if nonzero:
            data = np.where(data == 0, 3, data)
        return data.astype(dtype)

    return make


def bools(*shape: int | str):
    def make(n: int) -> np.ndarray:
        return rng(n + 3).random([n if s == "n" else s for s in shape]) < 0.5

    return make


def inputs(*makers) -> Inputs:
    return lambda n: [make(n) for make in makers]


def tensor(shape: str, dtype: str) -> str:
    return f"!relax.tensor<[{shape}], {dtype}>"


# --- binary --------------------------------------------------------------------------

BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}
LOGICAL = {"logical_and", "logical_or", "logical_xor"}


def binary_cases() -> list[Case]:
    cases = []
    for op in binary.OPERATIONS:
        name = op.name.removeprefix("relax.")
        if name in LOGICAL:
            makers, dtype = (bools("n", 4), bools(4)), "bool"
        elif name in ("left_shift", "right_shift"):
            makers, dtype = (ints("n", 4), ints(4, low=0, high=8)), "i32"
        elif name in BITWISE:
            makers, dtype = (ints("n", 4), ints(4)), "i32"
        else:
            makers, dtype = (floats("n", 4), floats(4, away_from_zero=True)), "f32"
        params = f"%x: {tensor('n, 4', dtype)}, %y: {tensor('4', dtype)}"
        cases.append(Case(name, params, f"{op.name} %x, %y", inputs(*makers)))
        if name in ("add", "divide", "floor_divide", "mod", "floor_mod", "maximum", "less"):
            params = f"%x: {tensor('n, 4', 'i32')}, %y: {tensor('n, 1', 'i32')}"
            makers = (ints("n", 4), ints("n", 1, nonzero=True))
            cases.append(Case(f"{name}-i32", params, f"{op.name} %x, %y", inputs(*makers)))
        if name in ("left_shift", "right_shift"):  # amounts outside the width: no poison
            for dtype, numpy_dtype, low in (("i8", "int8", -100), ("ui16", "uint16", 0)):
                params = f"%x: {tensor('n, 4', dtype)}, %y: {tensor('4', dtype)}"
                amounts = ints(4, dtype=numpy_dtype, low=-3 if low else 0, high=20)
                makers = (ints("n", 4, dtype=numpy_dtype, low=low, high=100), amounts)
                cases.append(
                    Case(f"{name}-{dtype}-wide", params, f"{op.name} %x, %y", inputs(*makers))
                )
    cases += [
        Case(
            "add-prim",
            f"%x: {tensor('n, 4', 'f32')}, %p: !relax.prim<f32>",
            "relax.add %x, %p",
            lambda n: [floats("n", 4)(n), np.float32(2.5)],
        ),
        Case(
            "subtract-ui8",
            f"%x: {tensor('n', 'ui8')}, %y: {tensor('n', 'ui8')}",
            "relax.subtract %x, %y",
            inputs(ints("n", dtype="uint8", low=0, high=255), ints("n", dtype="uint8", low=0)),
        ),
        Case(
            "divide-ui32",
            f"%x: {tensor('n', 'ui32')}, %y: {tensor('1', 'ui32')}",
            "relax.divide %x, %y",
            inputs(ints("n", dtype="uint32", low=0, high=99), ints(1, dtype="uint32", low=1)),
        ),
        Case(
            "greater-mixed",
            f"%x: {tensor('n, 4', 'f32')}, %y: {tensor('n, 4', 'i32')}",
            "relax.greater %x, %y",
            inputs(floats("n", 4), ints("n", 4, low=-3, high=3)),
        ),
        Case(
            "add-broadcast-rank",
            f"%x: {tensor('n, 1, 4', 'f32')}, %y: {tensor('3, 1', 'f32')}",
            "relax.add %x, %y",
            inputs(floats("n", 1, 4), floats(3, 1)),
        ),
    ]
    return cases


# --- unary ---------------------------------------------------------------------------

ON_INTEGERS = {"abs", "ceil", "floor", "negative", "round", "sign", "square", "trunc"}


def unary_cases() -> list[Case]:
    cases = []
    for op in unary.OPERATIONS:
        name = op.name.removeprefix("relax.")
        if name == "clip":
            continue
        if name == "logical_not":
            cases.append(
                Case(name, f"%x: {tensor('n, 4', 'bool')}", f"{op.name} %x", inputs(bools("n", 4)))
            )
            continue
        if name == "bitwise_not":
            cases.append(
                Case(name, f"%x: {tensor('n, 4', 'i32')}", f"{op.name} %x", inputs(ints("n", 4)))
            )
            continue
        cases.append(
            Case(name, f"%x: {tensor('n, 4', 'f32')}", f"{op.name} %x", inputs(floats("n", 4)))
        )
        if name in ON_INTEGERS | {"isnan", "isinf", "isfinite"}:
            cases.append(
                Case(
                    f"{name}-i32",
                    f"%x: {tensor('n, 4', 'i32')}",
                    f"{op.name} %x",
                    inputs(ints("n", 4)),
                )
            )
    special = np.array([np.nan, np.inf, -np.inf, 0.5, -2.5, 1.5], "float32")
    for name in ("isnan", "isinf", "isfinite", "round", "sign"):
        cases.append(
            Case(
                f"{name}-special",
                f"%x: {tensor('6', 'f32')}",
                f"relax.{name} %x",
                lambda n: [special],
            )
        )
    cases += [
        Case(
            "erf-f16",
            f"%x: {tensor('n', 'f16')}",
            "relax.erf %x",
            inputs(floats("n", dtype="float16")),
        ),
        Case(
            "abs-ui8",
            f"%x: {tensor('n', 'ui8')}",
            "relax.abs %x",
            inputs(ints("n", dtype="uint8", low=0, high=250)),
        ),
    ]
    return cases


CLIP = """
relax.function @main(%x: !relax.tensor<[n, 4], f32>) {
  %lo = relax.prim_value -1.0 : !relax.prim<f32>
  %hi = relax.prim_value 2 : !relax.prim<i64>
  %r = relax.clip %x, %lo, %hi
  relax.return %r
}
"""


# --- ternary, data type ----------------------------------------------------------------

OTHER_CASES = [
    Case(
        "ewise_fma",
        ", ".join(f"%{v}: {tensor('n, 4', 'f32')}" for v in "abc"),
        "relax.ewise_fma %a, %b, %c",
        inputs(floats("n", 4), floats("n", 4), floats("n", 4)),
    ),
    *(
        Case(
            f"astype-{source}-{target}",
            f"%x: {tensor('n, 3', source)}",
            f"relax.astype %x {{dtype = {target}}}",
            inputs(make),
        )
        for source, target, make in [
            ("f32", "i32", floats("n", 3)),
            ("f32", "ui8", lambda n: np.abs(floats("n", 3)(n))),
            ("f32", "bool", floats("n", 3)),
            ("f32", "f16", floats("n", 3)),
            ("f16", "f64", floats("n", 3, dtype="float16")),
            ("i32", "f32", ints("n", 3)),
            ("ui8", "f32", ints("n", 3, dtype="uint8", low=0, high=255)),
            ("i64", "i8", ints("n", 3, dtype="int64", low=-300, high=300)),
            ("i8", "i64", ints("n", 3, dtype="int8")),
            ("bool", "f32", bools("n", 3)),
            ("bool", "i32", bools("n", 3)),
            ("i32", "bool", ints("n", 3, low=-1, high=2)),
        ]
    ),
    Case(
        "wrap_param",
        f"%x: {tensor('n', 'f16')}",
        "relax.wrap_param %x",
        inputs(floats("n", dtype="float16")),
    ),
]


# --- statistical -------------------------------------------------------------------------


def statistical_cases() -> list[Case]:
    cases = []
    for op in statistical.OPERATIONS:
        name = op.name.removeprefix("relax.")
        if name in ("cumsum", "cumprod"):
            continue
        for attrs, label in [
            ("", "all"),
            (" {axis = [1]}", "axis1"),
            (" {axis = [-1, 0], keepdims = true}", "keepdims"),
            (" {axis = []}", "none"),
        ]:
            params = f"%x: {tensor('n, 4, 2', 'f32')}"
            cases.append(
                Case(f"{name}-{label}", params, f"{op.name} %x{attrs}", inputs(floats("n", 4, 2)))
            )
        params = f"%x: {tensor('n, 5', 'i32')}"
        cases.append(
            Case(f"{name}-i32", params, f"{op.name} %x {{axis = [0]}}", inputs(ints("n", 5)))
        )
        params = f"%x: {tensor('n, 5', 'bool')}"
        cases.append(
            Case(f"{name}-bool", params, f"{op.name} %x {{axis = [1]}}", inputs(bools("n", 5)))
        )
    return cases


# --- linear algebra -----------------------------------------------------------------------

LINEAR_ALGEBRA = [
    Case(
        f"matmul-{label}",
        f"%a: {tensor(lhs, 'f32')}, %b: {tensor(rhs, 'f32')}",
        "relax.matmul %a, %b" + attrs,
        lambda n, lhs=lhs, rhs=rhs: [
            floats(*[d if d == "n" else int(d) for d in lhs.split(", ")])(n),
            floats(*[d if d == "n" else int(d) for d in rhs.split(", ")], dtype="float32")(n),
        ],
    )
    for label, lhs, rhs, attrs in [
        ("2d", "n, 4", "4, 3", ""),
        ("batched", "2, n, 4", "2, 4, 3", ""),
        ("broadcast-batch", "1, n, 4", "2, 4, 3", ""),
        ("batch-vs-matrix", "2, 3, n, 4", "4, 5", ""),
        ("vector-matrix", "4", "4, n", ""),
        ("matrix-vector", "n, 4", "4", ""),
        ("vector-vector", "n", "n", ""),
        ("out-dtype", "n, 4", "4, 3", " {out_dtype = f64}"),
    ]
] + [
    Case(
        "matmul-i8-to-i32",
        f"%a: {tensor('n, 4', 'i8')}, %b: {tensor('4, 3', 'i8')}",
        "relax.matmul %a, %b {out_dtype = i32}",
        inputs(ints("n", 4, dtype="int8", low=-100, high=100), ints(4, 3, dtype="int8")),
    ),
    Case(
        "outer",
        f"%a: {tensor('n', 'f32')}, %b: {tensor('3', 'f32')}",
        "relax.outer %a, %b",
        inputs(floats("n"), floats(3)),
    ),
]

EINSUM = [
    ("ij,jk->ik", [("n", 4), (4, 3)]),
    ("ii->i", [("n", "n")]),
    ("bij,bjk->bik", [(2, "n", 4), (2, 4, 3)]),
    ("i,i->", [("n",), ("n",)]),
    ("...ij,...jk->...ik", [(2, "n", 4), (4, 3)]),
    ("ij->ji", [("n", 4)]),
]


def einsum_case(subscripts: str, shapes: list[tuple[int | str, ...]]) -> Case:
    names = [f"%t{i}" for i in range(len(shapes))]
    params = ", ".join(
        f"{name}: {tensor(', '.join(map(str, shape)), 'f32')}"
        for name, shape in zip(names, shapes, strict=True)
    )
    body = f'relax.einsum %tuple {{subscripts = "{subscripts}"}}'
    text_params = params
    return Case(
        f"einsum-{subscripts}",
        text_params,
        body,
        inputs(*(floats(*shape) for shape in shapes)),
    )


def einsum_text(case: Case, count: int) -> str:
    names = ", ".join(f"%t{i}" for i in range(count))
    return (
        f"relax.function @main({case.params}) {{\n  %tuple = relax.tuple({names})\n"
        f"  %r = {case.binding}\n  relax.return %r\n}}\n"
    )


CASES = [
    *binary_cases(),
    *unary_cases(),
    *OTHER_CASES,
    *statistical_cases(),
    *LINEAR_ALGEBRA,
]
PROGRAMS = {case.name: (case.text(), case.inputs) for case in CASES}
PROGRAMS["clip"] = (CLIP, inputs(floats("n", 4)))
for subscripts, shapes in EINSUM:
    case = einsum_case(subscripts, shapes)
    PROGRAMS[case.name] = (einsum_text(case, len(shapes)), case.inputs)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_lowered_program_is_accepted_by_mlir(name: str) -> None:
    text, _ = PROGRAMS[name]
    assert_accepted(lower(load(text), pipeline=True))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_lowered_program_computes_the_reference_result(name: str) -> None:
    text, make = PROGRAMS[name]
    for n in SIZES:
        compare_with_reference(text, make(n))


@pytest.mark.parametrize("op", ["divide", "floor_divide", "mod", "floor_mod"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8"])
@pytest.mark.parametrize("backend", ["lowered", "mlir"])
def test_integer_division_by_zero_and_by_minus_one(op: str, dtype: str, backend: str) -> None:
    """As the reference (NumPy): 0 where the divisor is 0, the minimum by -1 wraps;
    native code would trap on both (SIGFPE) without the lowering's guard."""
    if backend == "mlir":
        native_available()
    info = np.iinfo(dtype)
    x = np.array([info.min, info.min, 7, 0, info.max, 100, 9], dtype)
    y = np.array([0, -1, 0, 0, -1, 7, 3]).astype(dtype)  # -1 is the maximum when unsigned
    element = DataType.from_numpy(np.dtype(dtype))
    text = f"""relax.function @main(%x: {tensor("n", str(element))}, %y: {tensor("n", str(element))}) {{
  %r = relax.{op} %x, %y
  relax.return %r
}}
"""
    module = load(text)
    expected = np.asarray(run(module, "main", x, y))
    actual = np.asarray(compile_function(module, "main", backend)(x, y))
    np.testing.assert_array_equal(actual, expected)
    assert expected[0] == 0 and (op.endswith("mod") or info.min == 0 or expected[1] == info.min)
