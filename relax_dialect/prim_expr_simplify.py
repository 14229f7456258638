"""A canonicalising simplifier for ``PrimExpr`` and the equality prover on top.

Integer expressions are normalised to a sum of monomials with integer
coefficients. Atoms of a monomial are variables or non-polynomial nodes
(``floordiv``, ``floormod``, ``min``, ``max``, ``select``) whose operands are
themselves canonical. Two integer expressions are proven equal when the
canonical form of their difference is ``0``, which covers ``(m + 1) - 1 == m``,
``n * 2 * 2 == 4 * n``, ``(n * 4) floordiv 4 == n`` and ``n * m == m * n``.
Every rewrite is an identity over the integers; the simplified expression is
never less defined than the original (it may drop a division by zero that the
original would evaluate, never add one).
"""

from __future__ import annotations

from functools import lru_cache
from math import gcd

from .prim_expr import (
    COMPARE_OPS,
    EVALUATORS,
    Apply,
    BoolImm,
    FloatImm,
    IntImm,
    PrimExpr,
    Var,
    as_expr,
)

Monomial = tuple[PrimExpr, ...]
Poly = dict[Monomial, int]

ZERO = IntImm(0)
COMMUTATIVE = frozenset({"min", "max", "eq", "ne", "and", "or"})


@lru_cache(maxsize=1 << 16)
def simplify(expr: PrimExpr) -> PrimExpr:
    """The canonical form of ``expr``."""
    if isinstance(expr, IntImm | BoolImm | FloatImm | Var):
        return expr
    if expr.kind == "int":
        return _from_poly(_to_poly(expr))
    return _simplify_non_int(expr)


def prove_equal(lhs: PrimExpr, rhs: PrimExpr) -> bool:
    """True when ``lhs == rhs`` holds for every valuation of the variables."""
    if lhs == rhs:
        return True
    if isinstance(lhs, IntImm) and isinstance(rhs, IntImm):
        return False
    if lhs.kind != "int" or rhs.kind != "int":
        return simplify(lhs) == simplify(rhs)
    return simplify(Apply("sub", (lhs, rhs))) == ZERO


def prove_not_equal(lhs: PrimExpr, rhs: PrimExpr) -> bool:
    """True when ``lhs != rhs`` holds for every valuation of the variables: their
    difference is a non-zero constant, or its monomials' coefficients share a
    factor that its constant term lacks (``4 * n != 15``, as TVM's modular
    analysis proves)."""
    if lhs.kind != "int" or rhs.kind != "int":
        left, right = simplify(lhs), simplify(rhs)
        return _is_const(left) and _is_const(right) and left != right
    difference = simplify(Apply("sub", (lhs, rhs)))
    if isinstance(difference, IntImm):
        return difference.value != 0
    poly = _to_poly(difference)
    step = 0
    for monomial, coefficient in poly.items():
        if monomial:
            step = gcd(step, coefficient)
    return poly.get((), 0) % step != 0


def prove_nonnegative_over_shapes(expr: PrimExpr) -> bool:
    """True when ``expr >= 0`` holds whenever every variable is non-negative, the
    fact TVM's analyzer is given about the variables of tensor shapes
    (``MarkGlobalNonNegValue``): a sum with non-negative coefficients of products
    of such atoms, where ``min``/``max`` of non-negative operands and ``floordiv``
    or ``floormod`` of one by a positive constant are non-negative atoms."""
    if expr.kind != "int":
        return False
    return all(
        coeff > 0 and all(_nonnegative_atom(atom) for atom in mono)
        for mono, coeff in _to_poly(simplify(expr)).items()
    )


def _nonnegative_atom(atom: PrimExpr) -> bool:
    if isinstance(atom, Var):
        return True
    if not isinstance(atom, Apply):
        return False
    if atom.op in ("min", "max"):
        return all(prove_nonnegative_over_shapes(arg) for arg in atom.args)
    if atom.op in ("floordiv", "floormod"):
        dividend, divisor = atom.args
        positive = isinstance(divisor, IntImm) and divisor.value > 0
        return positive and prove_nonnegative_over_shapes(dividend)
    return False


# --- polynomials -------------------------------------------------------------


def _to_poly(expr: PrimExpr) -> Poly:
    if isinstance(expr, IntImm):
        return {(): expr.value} if expr.value else {}
    if isinstance(expr, Var):
        return {(expr,): 1}
    if isinstance(expr, BoolImm):
        return {(): int(expr.value)} if expr.value else {}
    assert isinstance(expr, Apply)
    op, args = expr.op, expr.args
    if op == "add":
        return _add(_to_poly(args[0]), _to_poly(args[1]))
    if op == "sub":
        return _add(_to_poly(args[0]), _scale(_to_poly(args[1]), -1))
    if op == "mul":
        return _mul(_to_poly(args[0]), _to_poly(args[1]))
    if op in ("floordiv", "floormod"):
        return _div_mod(op, _to_poly(args[0]), _to_poly(args[1]))
    if op in ("min", "max"):
        return _min_max(op, _to_poly(args[0]), _to_poly(args[1]))
    # select with integer branches
    return _atom_poly(_simplify_non_int(expr))


def _atom_poly(atom: PrimExpr) -> Poly:
    if isinstance(atom, IntImm):
        return {(): atom.value} if atom.value else {}
    return _to_poly(atom) if isinstance(atom, Apply) and atom.op not in _ATOM_OPS else {(atom,): 1}


_ATOM_OPS = frozenset({"floordiv", "floormod", "min", "max", "select"})


def _add(lhs: Poly, rhs: Poly) -> Poly:
    result = dict(lhs)
    for mono, coeff in rhs.items():
        total = result.get(mono, 0) + coeff
        if total:
            result[mono] = total
        else:
            result.pop(mono, None)
    return result


def _scale(poly: Poly, factor: int) -> Poly:
    return {mono: coeff * factor for mono, coeff in poly.items()} if factor else {}


def _mul(lhs: Poly, rhs: Poly) -> Poly:
    result: Poly = {}
    for mono_l, coeff_l in lhs.items():
        for mono_r, coeff_r in rhs.items():
            mono = tuple(sorted(mono_l + mono_r, key=_atom_key))
            total = result.get(mono, 0) + coeff_l * coeff_r
            if total:
                result[mono] = total
            else:
                result.pop(mono, None)
    return result


def _constant(poly: Poly) -> int | None:
    if not poly:
        return 0
    if len(poly) == 1 and () in poly:
        return poly[()]
    return None


def _div_mod(op: str, dividend: Poly, divisor: Poly) -> Poly:
    c = _constant(divisor)
    value = _constant(dividend)
    if c is None or c == 0:
        return {(_atom(op, _from_poly(dividend), _from_poly(divisor)),): 1}
    if value is not None:
        folded = value // c if op == "floordiv" else value % c
        return {(): folded} if folded else {}
    if c < 0:
        # floor(P / c) == floor(-P / -c); P mod c == -((-P) mod -c)
        flipped = _div_mod(op, _scale(dividend, -1), {(): -c})
        return flipped if op == "floordiv" else _scale(flipped, -1)
    quotient: Poly = {}
    remainder: Poly = {}
    for mono, coeff in dividend.items():
        q, r = divmod(coeff, c)
        if q:
            quotient[mono] = q
        if r:
            remainder[mono] = r
    # P == c * Q + R with 0 <= coefficients of R < c
    rest = _constant(remainder)
    if op == "floormod":
        if rest is not None:
            return {(): rest % c} if rest % c else {}
        g = _poly_gcd(remainder, c)
        atom = _atom(op, _from_poly(_scale_down(remainder, g)), IntImm(c // g))
        return {(atom,): g}
    if rest is not None:
        return _add(quotient, {(): rest // c} if rest // c else {})
    g = _poly_gcd(remainder, c)
    return _add(quotient, {(_nested_floordiv(_scale_down(remainder, g), c // g),): 1})


def _nested_floordiv(dividend: Poly, c: int) -> PrimExpr:
    """``floordiv(floordiv(x, a), c) == floordiv(x, a * c)`` for ``a, c > 0``."""
    if len(dividend) == 1:
        ((mono, coeff),) = dividend.items()
        if coeff == 1 and len(mono) == 1:
            (inner,) = mono
            if isinstance(inner, Apply) and inner.op == "floordiv":
                x, a = inner.args
                if isinstance(a, IntImm) and a.value > 0:
                    return _atom("floordiv", x, IntImm(a.value * c))
    return _atom("floordiv", _from_poly(dividend), IntImm(c))


def _poly_gcd(poly: Poly, c: int) -> int:
    g = c
    for coeff in poly.values():
        g = gcd(g, coeff)
    return abs(g) or 1


def _scale_down(poly: Poly, g: int) -> Poly:
    return {mono: coeff // g for mono, coeff in poly.items()}


def _min_max(op: str, lhs: Poly, rhs: Poly) -> Poly:
    difference = _constant(_add(lhs, _scale(rhs, -1)))
    if difference is not None:
        pick_lhs = difference <= 0 if op == "min" else difference >= 0
        return lhs if pick_lhs else rhs
    return {(_atom(op, _from_poly(lhs), _from_poly(rhs)),): 1}


def _atom(op: str, *args: PrimExpr) -> PrimExpr:
    if op in COMMUTATIVE:
        args = tuple(sorted(args, key=_atom_key))
    return Apply(op, args)


@lru_cache(maxsize=1 << 16)
def _atom_key(atom: PrimExpr) -> tuple[int, str]:
    return (0 if isinstance(atom, Var) else 1, str(atom))


def _mono_key(mono: Monomial) -> tuple[int, tuple[tuple[int, str], ...]]:
    return (-len(mono), tuple(_atom_key(a) for a in mono))


def _term(mono: Monomial, coeff: int) -> PrimExpr:
    if not mono:
        return IntImm(coeff)
    product: PrimExpr = mono[0]
    for atom in mono[1:]:
        product = Apply("mul", (product, atom))
    return product if coeff == 1 else Apply("mul", (IntImm(coeff), product))


def _from_poly(poly: Poly) -> PrimExpr:
    """Rebuild the canonical tree: positive terms, negative terms, constant."""
    monos = sorted((m for m in poly if m), key=_mono_key)
    ordered = [m for m in monos if poly[m] > 0] + [m for m in monos if poly[m] < 0]
    constant = poly.get((), 0)
    if not ordered or (poly[ordered[0]] < 0 and constant > 0):
        result: PrimExpr = IntImm(constant)
        constant = 0
    else:
        result = _term(ordered[0], poly[ordered[0]])
        ordered = ordered[1:]
    for mono in ordered:
        coeff = poly[mono]
        op = "add" if coeff > 0 else "sub"
        result = Apply(op, (result, _term(mono, abs(coeff))))
    if constant:
        op = "add" if constant > 0 else "sub"
        result = Apply(op, (result, IntImm(abs(constant))))
    return result


# --- booleans, floats and select --------------------------------------------


def _is_const(expr: PrimExpr) -> bool:
    return isinstance(expr, IntImm | BoolImm | FloatImm)


def _simplify_non_int(expr: PrimExpr) -> PrimExpr:
    assert isinstance(expr, Apply)
    args = tuple(simplify(a) for a in expr.args)
    op = expr.op
    if op == "select":
        cond, if_true, if_false = args
        if isinstance(cond, BoolImm | IntImm):
            return if_true if cond.value else if_false
        return if_true if if_true == if_false else Apply(op, args)
    if all(_is_const(a) for a in args):
        try:
            return as_expr(EVALUATORS[op](*(a.value for a in args)))  # pyright: ignore
        except ZeroDivisionError:
            return Apply(op, args)
    if op in COMPARE_OPS and args[0].kind == "int" and args[1].kind == "int":
        if prove_equal(args[0], args[1]):
            return BoolImm(op in ("eq", "le", "ge"))
        difference = simplify(Apply("sub", args))
        if isinstance(difference, IntImm):
            return as_expr(EVALUATORS[op](difference.value, 0))
    if op in ("and", "or"):
        absorbing = op == "or"
        for index, arg in enumerate(args):
            if isinstance(arg, BoolImm):
                return arg if arg.value == absorbing else args[1 - index]
        if args[0] == args[1]:
            return args[0]
    if op == "not" and isinstance(args[0], Apply) and args[0].op == "not":
        return args[0].args[0]
    return _atom(op, *args)
