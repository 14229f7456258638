"""Lowering of the tensor creation operators: reference interpreter vs the bundled
interpreter vs the MLIR toolchain, at several values of the symbolic size ``n``."""

from __future__ import annotations

import numpy as np
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    floats,
    inputs,
    ints,
    operators_of,
    tensor,
)

from relax_dialect.dtype import DataType
from relax_dialect.ops import create
from relax_dialect.values import PrimValue, ShapeValue

INT64 = DataType("int", 64)
N = "%pn: !relax.prim<i64, n>"


def with_n(makers=()):
    """Inputs: the prim value ``n`` then the given makers."""
    return lambda n: [PrimValue(n, INT64), *(make(n) for make in makers)]


def prims(**values: str) -> str:
    return "\n".join(f"%{name} = relax.prim_value {v}" for name, v in values.items())


def fill_value(value: float, dtype: str):
    return lambda n: np.asarray(value, dtype)


CASES = [
    Case("zeros", N, "%s = relax.shape [n, 3]\n%r = relax.zeros %s {dtype = f32}", with_n()),
    Case("ones", N, "%s = relax.shape [2, n]\n%r = relax.ones %s {dtype = i8}", with_n()),
    Case("ones-bool", N, "%s = relax.shape [n]\n%r = relax.ones %s {dtype = bool}", with_n()),
    Case(
        "zeros-runtime-shape",
        "%s: !relax.shape<ndim = 2>",
        "%r = relax.zeros %s {dtype = f32}",
        lambda n: [ShapeValue((n, 2))],
    ),
    Case(
        "full",
        f"{N}, %v: {tensor('', 'f32')}",
        "%s = relax.shape [n, 3]\n%r = relax.full %s, %v",
        with_n([fill_value(2.5, "float32")]),
    ),
    Case(
        "full-convert",
        f"{N}, %v: {tensor('', 'f32')}",
        "%s = relax.shape [n, 2]\n%r = relax.full %s, %v {dtype = i32}",
        with_n([fill_value(-3.75, "float32")]),
    ),
    Case(
        "zeros_like",
        f"%x: {tensor('n, 3', 'f32')}",
        "%r = relax.zeros_like %x",
        inputs(floats("n", 3)),
    ),
    Case(
        "ones_like",
        f"%x: {tensor('n, 3', 'f32')}",
        "%r = relax.ones_like %x {dtype = i64}",
        inputs(floats("n", 3)),
    ),
    Case(
        "full_like",
        f"%x: {tensor('n, 2', 'i32')}, %v: {tensor('', 'i64')}",
        "%r = relax.full_like %x, %v",
        inputs(ints("n", 2), fill_value(7, "int64")),
    ),
    Case(
        "full_like-dtype",
        f"%x: {tensor('n', 'i32')}, %v: {tensor('', 'f32')}",
        "%r = relax.full_like %x, %v {dtype = f16}",
        inputs(ints("n"), fill_value(1.5, "float32")),
    ),
    Case("eye", N, f"{prims(c3='3', c0='0')}\n%r = relax.eye %pn, %c3, %c0", with_n()),
    Case(
        "eye-k",
        f"{N}, %k: !relax.prim<i64>",
        f"{prims(c4='4')}\n%r = relax.eye %c4, %pn, %k {{dtype = i32}}",
        lambda n: [PrimValue(n, INT64), PrimValue(1 - n, INT64)],
    ),
    Case(
        "eye_like",
        f"%x: {tensor('n, 4', 'i32')}",
        f"{prims(c1='1')}\n%r = relax.eye_like %x, %c1 {{dtype = bool}}",
        inputs(ints("n", 4)),
    ),
    Case(
        "eye_like-k",
        f"%x: {tensor('3, n', 'f32')}, %k: !relax.prim<i32>",
        "%r = relax.eye_like %x, %k",
        lambda n: [floats(3, "n")(n), PrimValue(-1, DataType("int", 32))],
    ),
    Case(
        "arange", "", f"{prims(a='0', b='10', c='3')}\n%r = relax.arange %a, %b, %c", lambda n: []
    ),
    Case(
        "arange-backward-f32",
        "",
        f"{prims(a='10', b='1', c='-2')}\n%r = relax.arange %a, %b, %c {{dtype = f32}}",
        lambda n: [],
    ),
    Case(
        "arange-symbolic", N, f"{prims(c0='0', c1='1')}\n%r = relax.arange %c0, %pn, %c1", with_n()
    ),
    Case(
        "arange-symbolic-start",
        f"{N}, %pm: !relax.prim<i64, m>",
        f"{prims(c3='3')}\n%r = relax.arange %pm, %pn, %c3 {{dtype = i32}}",
        lambda n: [PrimValue(n, INT64), PrimValue(-n - 4, INT64)],
    ),
    Case(
        "arange-float",
        "",
        f"{prims(a='0.5', b='3.0', c='0.7')}\n%r = relax.arange %a, %b, %c",
        lambda n: [],
    ),
    Case(
        "arange-float-f16",
        "",
        f"{prims(a='3.0', b='0', c='-0.3')}\n%r = relax.arange %a, %b, %c {{dtype = f16}}",
        lambda n: [],
    ),
    Case(
        "arange-float-symbolic",
        N,
        f"{prims(c0='0', h='0.5')}\n%r = relax.arange %c0, %pn, %h",
        with_n(),
    ),
    Case(
        "tril",
        f"%x: {tensor('2, n, 4', 'f32')}",
        f"{prims(k='0')}\n%r = relax.tril %x, %k",
        inputs(floats(2, "n", 4)),
    ),
    Case(
        "tril-k",
        f"%x: {tensor('n, 5', 'i32')}, %k: !relax.prim<i64>",
        "%r = relax.tril %x, %k",
        lambda n: [ints("n", 5)(n), PrimValue(n - 3, INT64)],
    ),
    Case(
        "triu",
        f"%x: {tensor('n, n', 'f32')}",
        f"{prims(k='1')}\n%r = relax.triu %x, %k",
        inputs(floats("n", "n")),
    ),
    Case(
        "triu-negative",
        f"%x: {tensor('4, n', 'bool')}, %k: !relax.prim<i32>",
        "%r = relax.triu %x, %k",
        lambda n: [np.ones((4, n), bool), PrimValue(-2, DataType("int", 32))],
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(create.OPERATIONS, operators_of(CASES))
