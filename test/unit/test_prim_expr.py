"""PrimExpr: construction, evaluation, substitution, printing and the simplifier."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.parser import Parser

from relax_dialect.attributes import PrimExprAttr
from relax_dialect.dialect import Relax
from relax_dialect.prim_expr import (
    Apply,
    BoolImm,
    FloatImm,
    IntImm,
    PrimExpr,
    Var,
    call,
    evaluate,
    free_vars,
    substitute,
    to_text,
)
from relax_dialect.prim_expr_simplify import (
    prove_equal,
    prove_nonnegative_over_shapes,
    prove_not_equal,
    simplify,
)

pytestmark = pytest.mark.heavy

n, m, k = Var("n"), Var("m"), Var("k")


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        ((m + 1) - 1, m),
        (n * 2 * 2, 4 * n),
        ((n * 4) // 4, n),
        (n * m, m * n),
        ((n + 1) * (n - 1), n * n - 1),
        ((4 * n + 3) // 4, n),
        ((4 * n + 3) % 4, IntImm(3)),
        ((n // 2) // 3, n // 6),
        ((2 * n + 2) // 4, (n + 1) // 2),
        (call("min", n, n + 1), n),
        (call("max", n + 2, n), n + 2),
        (call("select", BoolImm(True), n, m), n),
        (call("select", call("lt", n, m), k, k), k),
        (n - n, IntImm(0)),
    ],
)
def test_proves_equalities(lhs: PrimExpr, rhs: PrimExpr) -> None:
    assert prove_equal(lhs, rhs)
    assert simplify(lhs) == simplify(rhs)


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (n, n + 1),
        (4 * n + 1, 4 * n),
        (IntImm(3), IntImm(4)),
        (n * m + 2, m * n),
        (n * 4, IntImm(15)),
        (2 * n + 1, 4 * m),
        (6 * n * m + 3 * k, IntImm(10)),
    ],
)
def test_proves_disequalities(lhs: PrimExpr, rhs: PrimExpr) -> None:
    assert prove_not_equal(lhs, rhs)
    assert not prove_equal(lhs, rhs)


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [(n, m), (n, 2 * n), (n // 2, n), (n * n, n), (n * 4, IntImm(16)), (6 * n, 4 * m + 2)],
)
def test_undecidable_pairs_are_neither(lhs: PrimExpr, rhs: PrimExpr) -> None:
    assert not prove_equal(lhs, rhs)
    assert not prove_not_equal(lhs, rhs)


@pytest.mark.parametrize(
    "expr",
    [
        n,
        (n + m) - m,
        n * m + 3,
        call("min", n, 32) - 0,
        (n + 7) // 8,
        call("max", n - n, m) % 4,
        IntImm(0),
    ],
)
def test_nonnegative_over_shapes(expr: PrimExpr) -> None:
    assert prove_nonnegative_over_shapes(expr)


@pytest.mark.parametrize(
    "expr",
    [
        -n,
        n - m,
        IntImm(-1),
        call("min", n, m - k),
        n // -2,
        call("select", call("lt", n, m), n, m),
        call("lt", n, m),
    ],
)
def test_not_nonnegative_over_shapes(expr: PrimExpr) -> None:
    assert not prove_nonnegative_over_shapes(expr)


def test_canonical_text() -> None:
    assert to_text(simplify(3 - n)) == "3 - n"
    assert to_text(simplify(n * (m + 1) - n)) == "m * n"
    assert to_text(simplify((n + 4) // 4)) == "n floordiv 4 + 1"
    assert to_text(simplify(m - n + 1)) == "m - n + 1"


def test_booleans_and_floats_fold() -> None:
    assert simplify(call("lt", n, n + 1)) == BoolImm(True)
    assert simplify(call("and", call("eq", n, n), BoolImm(False))) == BoolImm(False)
    assert simplify(call("not", call("not", call("lt", n, m)))) == call("lt", n, m)
    assert simplify(FloatImm(1.5) + FloatImm(2.0)) == FloatImm(3.5)


def test_evaluate_substitute_free_vars() -> None:
    expr = call("select", call("lt", n, 4), n * m, n // m)
    assert evaluate(expr, {"n": 3, "m": 5}) == 15
    assert evaluate(expr, {"n": 9, "m": 2}) == 4
    assert free_vars(expr) == {"n", "m"}
    assert substitute(expr, {"m": IntImm(2)}) == call("select", call("lt", n, 4), n * 2, n // 2)
    assert evaluate(IntImm(-7) // 2, {}) == -4
    assert evaluate(IntImm(-7) % 2, {}) == 1
    with pytest.raises(ZeroDivisionError):
        evaluate(n // m, {"n": 1, "m": 0})
    with pytest.raises(KeyError):
        evaluate(n, {})


def test_arity_is_checked() -> None:
    with pytest.raises(ValueError, match="takes 2 operands"):
        Apply("add", (n,))


def _parse(text: str) -> PrimExpr:
    ctx = Context()
    ctx.load_dialect(Relax)
    attr = Parser(ctx, f"#relax.expr<{text}>").parse_attribute()
    assert isinstance(attr, PrimExprAttr)
    return attr.data


# --- property-based tests -----------------------------------------------------

VARIABLES = ("n", "m", "k")
ARITH = ("add", "sub", "mul", "floordiv", "floormod", "min", "max")
COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")


def int_exprs() -> st.SearchStrategy[PrimExpr]:
    leaves = st.one_of(
        st.integers(-6, 6).map(IntImm),
        st.sampled_from(VARIABLES).map(Var),
    )

    def extend(children: st.SearchStrategy[PrimExpr]) -> st.SearchStrategy[PrimExpr]:
        binary = st.tuples(st.sampled_from(ARITH), children, children).map(
            lambda t: Apply(t[0], (t[1], t[2]))
        )
        compare = st.tuples(st.sampled_from(COMPARE), children, children).map(
            lambda t: Apply(t[0], (t[1], t[2]))
        )
        select = st.tuples(compare, children, children).map(
            lambda t: Apply("select", (t[0], t[1], t[2]))
        )
        return st.one_of(binary, select)

    return st.recursive(leaves, extend, max_leaves=12)


valuations = st.fixed_dictionaries({v: st.integers(-20, 20) for v in VARIABLES})


@settings(max_examples=600, deadline=None)
@given(int_exprs(), valuations)
def test_simplified_agrees_with_original(expr: PrimExpr, env: dict[str, int]) -> None:
    try:
        expected = evaluate(expr, env)
    except ZeroDivisionError:
        return  # the simplifier may remove a division by zero, never add one
    assert evaluate(simplify(expr), env) == expected


@settings(max_examples=300, deadline=None)
@given(int_exprs())
def test_simplify_is_idempotent(expr: PrimExpr) -> None:
    once = simplify(expr)
    assert simplify(once) == once


@settings(max_examples=300, deadline=None)
@given(int_exprs())
def test_text_round_trip(expr: PrimExpr) -> None:
    assert _parse(to_text(expr)) == expr


@settings(max_examples=300, deadline=None)
@given(int_exprs(), int_exprs(), valuations)
def test_prover_is_sound(lhs: PrimExpr, rhs: PrimExpr, env: dict[str, int]) -> None:
    try:
        left, right = evaluate(lhs, env), evaluate(rhs, env)
    except ZeroDivisionError:
        return
    if prove_equal(lhs, rhs):
        assert left == right
    if prove_not_equal(lhs, rhs):
        assert left != right
