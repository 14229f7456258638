"""The algebraic identities of ``canonicalize`` (``canonicalization/algebra.py``) keep
every result bit for bit: each identity runs on the reference interpreter before and
after ``canonicalize``, on inputs with NaN (of both signs, with a payload),
infinities, signed zeros, subnormals and integer extremes, and the results must have
the same data type, shape, values (NaN equal to NaN) and sign bits.

The cases an identity must leave alone run too: for each, the rewrite it would make
(the binding replaced by its operand) is shown to change a result on these inputs,
so the inputs tell a sound guard from an unsound one."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.transforms.canonicalize import CanonicalizePass

from relax_dialect.canonicalization import algebra
from relax_dialect.dialect import Relax
from relax_dialect.interpreter import run
from relax_dialect.ops.functions import FunctionOp, ReturnOp
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.well_formed import check_well_formed


def _floats(dtype: type[np.floating]) -> np.ndarray:
    info = np.finfo(dtype)
    payload = np.array([0x7FC00001 if dtype is np.float32 else 0x7E01], dtype=f"u{info.bits // 8}")
    values = [
        np.nan,
        -np.nan,
        payload.view(dtype)[0],
        np.inf,
        -np.inf,
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.5,
        -2.5,
        info.smallest_subnormal,
        -info.smallest_subnormal,
        info.max,
        -info.max,
        info.tiny,
    ]
    return np.array(values, dtype=dtype).reshape(4, 4)


def _integers(dtype: type[np.integer]) -> np.ndarray:
    info = np.iinfo(dtype)
    values = [info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, 3, 7, 100, 127]
    if info.min < 0:
        values += [-1, -2, -3, -7, -100]
    else:
        values += [128, 200, 254, 64, 32]
    return np.array(values, dtype=np.int64).astype(dtype).reshape(4, 4)


INPUTS = {
    "f32": _floats(np.float32),
    "f16": _floats(np.float16),
    "i32": _integers(np.int32),
    "i64": _integers(np.int64),
    "i8": _integers(np.int8),
    "u8": _integers(np.uint8),
    "bool": np.array([True, False, False, True] * 4).reshape(4, 4),
}
"""Inputs of shape [4, 4] (the parameters' [n, 4] with n = 4), by data type."""


@dataclass(frozen=True)
class Case:
    """A function of parameter ``%x`` (``dtype``, ``[n, 4]``) and ``extra`` ones, whose
    last binding is the one checked."""

    name: str
    dtype: str
    bindings: tuple[str, ...]
    extra: tuple[tuple[str, str], ...] = ()
    """Further parameters: name and data type (all of shape [n, 4])."""

    def module(self) -> ModuleOp:
        params = [("x", self.dtype), *self.extra]
        signature = ", ".join(f"%{p}: !relax.tensor<[n, 4], {t}>" for p, t in params)
        body = "".join(f"  {line}\n" for line in self.bindings)
        result = self.bindings[-1].split(" = ", 1)[0]
        return load(
            f"relax.function @main({signature}) -> !relax.object {{\n{body}"
            f"  relax.return {result}\n}}\n"
        )

    def inputs(self) -> list[np.ndarray]:
        extra = [INPUTS[t][::-1].copy() for _, t in self.extra]
        return [INPUTS[self.dtype], *extra]


def constant(dtype: str, value: str) -> str:
    return f"%c = relax.constant dense<[], {dtype}, {value}>"


def binary(op: str, dtype: str, value: str, left: bool = False) -> tuple[str, ...]:
    operands = "%c, %x" if left else "%x, %c"
    return (constant(dtype, value), f"%y = relax.{op} {operands}")


def twice(op: str) -> tuple[str, ...]:
    return (f"%y1 = relax.{op} %x", f"%y = relax.{op} %y1")


IDENTITIES = [
    *(Case(f"x * 1 ({t})", t, binary("multiply", t, "1")) for t in ("i32", "i8", "u8")),
    *(Case(f"x * 1.0 ({t})", t, binary("multiply", t, "1.0")) for t in ("f32", "f16")),
    Case("1.0 * x", "f32", binary("multiply", "f32", "1.0", left=True)),
    Case(
        "x * prim 1.0",
        "f32",
        ("%c = relax.prim_value 1.0 : !relax.prim<f32, 1.0>", "%y = relax.multiply %x, %c"),
    ),
    Case("bool x * 1.0 (a bool result)", "bool", binary("multiply", "f32", "1.0")),
    *(Case(f"x + -0.0 ({t})", t, binary("add", t, "-0.0")) for t in ("f32", "f16")),
    Case("-0.0 + x", "f32", binary("add", "f32", "-0.0", left=True)),
    *(Case(f"x + 0 ({t})", t, binary("add", t, "0")) for t in ("i32", "i8", "u8")),
    Case("0 + x", "i64", binary("add", "i64", "0", left=True)),
    *(Case(f"x - 0.0 ({t})", t, binary("subtract", t, "0.0")) for t in ("f32", "f16")),
    *(Case(f"x - 0 ({t})", t, binary("subtract", t, "0")) for t in ("i32", "u8")),
    *(Case(f"x / 1.0 ({t})", t, binary("divide", t, "1.0")) for t in ("f32", "f16")),
    *(Case(f"x / 1 ({t})", t, binary("divide", t, "1")) for t in ("i32", "i8", "u8")),
    *(Case(f"x // 1 ({t})", t, binary("floor_divide", t, "1")) for t in ("i32", "i8", "u8")),
    *(Case(f"-(-x) ({t})", t, twice("negative")) for t in ("f32", "f16", "i32", "i8")),
    *(Case(f"~(~x) ({t})", t, twice("bitwise_not")) for t in ("i32", "u8", "bool")),
    Case("!(!x)", "bool", twice("logical_not")),
    *(
        Case(f"{op}(x, x) ({t})", t, (f"%y = relax.{op} %x, %x",))
        for op in ("maximum", "minimum")
        for t in ("f32", "f16", "i32", "u8")
    ),
    *(
        Case(f"{op}(x, x) ({t})", t, (f"%y = relax.{op} %x, %x",))
        for op in ("bitwise_and", "bitwise_or")
        for t in ("i32", "u8", "bool")
    ),
    *(
        Case(f"{op}(x, x)", "bool", (f"%y = relax.{op} %x, %x",))
        for op in ("logical_and", "logical_or")
    ),
    *(
        Case(f"where(c, x, x) ({t})", t, ("%y = relax.where %c, %x, %x",), (("c", "bool"),))
        for t in ("f32", "i32")
    ),
    *(
        Case(f"astype to {t}", t, (f"%y = relax.astype %x {{dtype = {t}}}",))
        for t in ("f32", "f16", "i8")
    ),
    Case(
        "broadcast_to the shape of x",
        "f32",
        ("%s = relax.shape [n, 4]", "%y = relax.broadcast_to %x, %s"),
    ),
]
"""Identities ``canonicalize`` applies."""

KEPT = [
    Case("x + 0.0", "f32", binary("add", "f32", "0.0")),
    Case("0.0 + x", "f32", binary("add", "f32", "0.0", left=True)),
    Case("x + 0.0 (f16)", "f16", binary("add", "f16", "0.0")),
    Case(
        "x + [-0.0, -0.0, 0.0, -0.0]",
        "f32",
        (
            "%c = relax.constant dense<[4], f32, [-0.0, -0.0, 0.0, -0.0]>",
            "%y = relax.add %x, %c",
        ),
    ),
    Case("x - -0.0", "f32", binary("subtract", "f32", "-0.0")),
    Case("0 - x", "i32", binary("subtract", "i32", "0", left=True)),
    Case("x // 1.0", "f32", binary("floor_divide", "f32", "1.0")),
    Case("x * -1.0", "f32", binary("multiply", "f32", "-1.0")),
    Case("x / -1", "i32", binary("divide", "i32", "-1")),
    Case("1.0 * bool x (an f32 result)", "bool", binary("multiply", "f32", "1.0", left=True)),
    Case(
        "x * ones of a larger shape",
        "f32",
        ("%c = relax.constant dense<[2, 4, 4], f32, 1.0>", "%y = relax.multiply %x, %c"),
    ),
    Case("x - x", "f32", ("%y = relax.subtract %x, %x",)),
    Case("x ^ x", "i32", ("%y = relax.bitwise_xor %x, %x",)),
    Case("-(~x)", "i32", ("%y1 = relax.bitwise_not %x", "%y = relax.negative %y1")),
    Case("astype to another type", "f32", ("%y = relax.astype %x {dtype = f16}",)),
    Case(
        "broadcast_to a larger shape",
        "f32",
        ("%s = relax.shape [2, n, 4]", "%y = relax.broadcast_to %x, %s"),
    ),
]
"""Bindings ``canonicalize`` must keep: replacing them by ``%x`` changes a result."""


def last_binding(module: ModuleOp) -> OperatorOp:
    main = next(op for op in module.walk() if isinstance(op, FunctionOp))
    last = main.body.block.last_op
    assert isinstance(last, ReturnOp) and isinstance(last.value.owner, OperatorOp)
    return last.value.owner


def canonicalized(module: ModuleOp) -> ModuleOp:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Relax):
        ctx.load_dialect(dialect)
    result = module.clone()
    CanonicalizePass().apply(ctx, result)
    assert check_well_formed(result) == [], str(result)
    return result


def returns_x(module: ModuleOp) -> bool:
    """Whether ``@main`` returns its parameter ``%x`` and computes nothing."""
    main = next(op for op in module.walk() if isinstance(op, FunctionOp))
    last = main.body.block.last_op
    assert isinstance(last, ReturnOp)
    computes = any(isinstance(op, OperatorOp) for op in main.walk())
    return last.value is main.body.block.args[0] and not computes


def assert_identical(got: object, want: object) -> None:
    """Same data type, shape, values (NaN equal to NaN) and, for floats, sign bits."""
    assert isinstance(got, np.ndarray) and isinstance(want, np.ndarray)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    if want.dtype.kind == "f":
        assert np.array_equal(got, want, equal_nan=True), (got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want)), (got, want)
    else:
        assert np.array_equal(got, want), (got, want)


def identical(got: object, want: object) -> bool:
    try:
        assert_identical(got, want)
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize("case", IDENTITIES, ids=lambda c: c.name)
def test_an_identity_keeps_every_bit(case: Case) -> None:
    module = case.module()
    before = run(module, "main", *case.inputs())
    after = canonicalized(module)
    assert returns_x(after), f"canonicalize did not apply {case.name}:\n{after}"
    assert_identical(run(after, "main", *case.inputs()), before)


@pytest.mark.parametrize("case", KEPT, ids=lambda c: c.name)
def test_a_binding_that_is_not_an_identity_stays(case: Case) -> None:
    module = case.module()
    inputs = case.inputs()
    before = run(module, "main", *inputs)
    assert not identical(inputs[0], before), f"{case.name} is x on these inputs"
    after = canonicalized(module)
    assert not returns_x(after), f"canonicalize replaced {case.name} by x"
    assert_identical(run(after, "main", *inputs), before)
    # The patterns' own guards refuse it, not only the driver (which keeps StructInfo;
    # the passes' walk may refine it).
    op = last_binding(module)
    offers = [p for p in algebra.PATTERNS if isinstance(op, p.root) and p.replacement(op)]
    assert not offers, f"{offers} would replace {case.name}"


def test_the_inputs_have_the_special_values() -> None:
    """What the identities are tested on (a check of the test's own inputs)."""
    for dtype in ("f32", "f16"):
        x = INPUTS[dtype].reshape(-1)
        assert np.isnan(x).sum() == 3 and np.signbit(x[np.isnan(x)]).any()
        assert np.isposinf(x).any() and np.isneginf(x).any()
        zeros = x[x == 0]
        assert np.signbit(zeros).any() and not np.signbit(zeros).all()
        assert (np.abs(x[np.isfinite(x) & (x != 0)]) < np.finfo(x.dtype).tiny).any()
    for dtype in ("i32", "i64", "i8", "u8"):
        x = INPUTS[dtype]
        info = np.iinfo(x.dtype)
        assert x.min() == info.min and x.max() == info.max
