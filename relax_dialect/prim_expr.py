"""Symbolic scalar expressions (the spec's ``PrimExpr``) over named variables.

Expressions are immutable, hashable trees. Integer expressions describe shape
dimensions over named symbolic ``int64`` variables; boolean expressions come
from comparisons and logic; float constants appear only as prim values.
This module has no xDSL dependency: it is plain Python.

Text syntax (used inside the dialect's types and attributes)::

    n + 1          n - m          2 * n          n floordiv 4     n floormod 4
    min(n, m)      max(n, 4)      select(lt(n, 4), n, 4)
    eq(a, b)  ne(a, b)  lt(a, b)  le(a, b)  gt(a, b)  ge(a, b)
    and(a, b)  or(a, b)  not(a)   true  false  1.5
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Literal

from .bounded_memo import BoundedMemo

Kind = Literal["int", "bool", "float"]
Scalar = int | float | bool

ARITH_OPS = ("add", "sub", "mul", "floordiv", "floormod", "min", "max")
COMPARE_OPS = ("eq", "ne", "lt", "le", "gt", "ge")
LOGIC_OPS = ("and", "or", "not")
INFIX = {"add": "+", "sub": "-", "mul": "*", "floordiv": "floordiv", "floormod": "floormod"}
PRECEDENCE = {"add": 1, "sub": 1, "mul": 2, "floordiv": 2, "floormod": 2}
ARITY = {op: 2 for op in ARITH_OPS + COMPARE_OPS} | {"and": 2, "or": 2, "not": 1, "select": 3}


class PrimExpr:
    """Base of all expression nodes; supports ``+ - * // %`` with ints."""

    __slots__ = ("_hash",)
    _hash: int

    @property
    def kind(self) -> Kind:
        raise NotImplementedError

    def __hash__(self) -> int:
        return self._hash

    def __add__(self, other: PrimExpr | int) -> PrimExpr:
        return Apply("add", (self, as_expr(other)))

    def __radd__(self, other: int) -> PrimExpr:
        return Apply("add", (as_expr(other), self))

    def __sub__(self, other: PrimExpr | int) -> PrimExpr:
        return Apply("sub", (self, as_expr(other)))

    def __rsub__(self, other: int) -> PrimExpr:
        return Apply("sub", (as_expr(other), self))

    def __mul__(self, other: PrimExpr | int) -> PrimExpr:
        return Apply("mul", (self, as_expr(other)))

    def __rmul__(self, other: int) -> PrimExpr:
        return Apply("mul", (as_expr(other), self))

    def __floordiv__(self, other: PrimExpr | int) -> PrimExpr:
        return Apply("floordiv", (self, as_expr(other)))

    def __mod__(self, other: PrimExpr | int) -> PrimExpr:
        return Apply("floormod", (self, as_expr(other)))

    def __neg__(self) -> PrimExpr:
        return Apply("mul", (IntImm(-1), self))

    def __str__(self) -> str:
        return to_text(self)

    def __repr__(self) -> str:
        return f"PrimExpr({to_text(self)})"


INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def int64_problem(value: int) -> str | None:
    """Why an integer written in a program cannot be a symbolic expression's constant."""
    if INT64_MIN <= value <= INT64_MAX:
        return None
    return f"integer {value} does not fit in int64"


def dimension_problem(dim: PrimExpr) -> str | None:
    """Why a tensor dimension is invalid: a constant one must be a non-negative int64
    (a symbolic one is checked when it is bound, at run time)."""
    if isinstance(dim, IntImm) and dim.value < 0:
        return f"tensor dimension {dim.value} is negative (a dimension is a non-negative int64)"
    return None


class IntImm(PrimExpr):
    """An integer constant."""

    __slots__ = ("value",)
    value: int

    def __init__(self, value: int):
        self.value = value
        self._hash = hash(("int", value))

    @property
    def kind(self) -> Kind:
        return "int"

    def __eq__(self, other: object) -> bool:
        return type(other) is IntImm and other.value == self.value

    __hash__ = PrimExpr.__hash__


class BoolImm(PrimExpr):
    """A boolean constant."""

    __slots__ = ("value",)
    value: bool

    def __init__(self, value: bool):
        self.value = value
        self._hash = hash(("bool", value))

    @property
    def kind(self) -> Kind:
        return "bool"

    def __eq__(self, other: object) -> bool:
        return type(other) is BoolImm and other.value == self.value

    __hash__ = PrimExpr.__hash__


class FloatImm(PrimExpr):
    """A floating-point constant."""

    __slots__ = ("value",)
    value: float

    def __init__(self, value: float):
        self.value = value
        self._hash = hash(("float", value))

    @property
    def kind(self) -> Kind:
        return "float"

    def __eq__(self, other: object) -> bool:
        return type(other) is FloatImm and other.value == self.value

    __hash__ = PrimExpr.__hash__


class Var(PrimExpr):
    """A named symbolic int64 variable (a shape variable)."""

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str):
        self.name = name
        self._hash = hash(("var", name))

    @property
    def kind(self) -> Kind:
        return "int"

    def __eq__(self, other: object) -> bool:
        return type(other) is Var and other.name == self.name

    __hash__ = PrimExpr.__hash__


class Apply(PrimExpr):
    """An operator applied to sub-expressions, e.g. ``Apply("add", (a, b))``."""

    __slots__ = ("args", "op")
    op: str
    args: tuple[PrimExpr, ...]

    def __init__(self, op: str, args: tuple[PrimExpr, ...]):
        if ARITY.get(op) != len(args):
            raise ValueError(f"'{op}' takes {ARITY.get(op)} operands, got {len(args)}")
        self.op = op
        self.args = args
        self._hash = hash((op, args))

    @property
    def kind(self) -> Kind:
        if self.op in COMPARE_OPS or self.op in LOGIC_OPS:
            return "bool"
        if self.op == "select":
            return self.args[1].kind
        return "float" if any(a.kind == "float" for a in self.args) else "int"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is Apply
            and other._hash == self._hash
            and other.op == self.op
            and other.args == self.args
        )

    __hash__ = PrimExpr.__hash__


def as_expr(value: PrimExpr | Scalar | str) -> PrimExpr:
    """Wrap a Python scalar as a constant expression (a string names a variable)."""
    if isinstance(value, PrimExpr):
        return value
    if isinstance(value, str):
        return Var(value)
    if isinstance(value, bool):
        return BoolImm(value)
    if isinstance(value, int):
        return IntImm(value)
    return FloatImm(value)


def call(op: str, *args: PrimExpr | Scalar) -> PrimExpr:
    """Build ``op(args...)``, e.g. ``call("min", n, 4)``."""
    return Apply(op, tuple(as_expr(a) for a in args))


def walk(expr: PrimExpr) -> Iterator[PrimExpr]:
    """Yield every node of ``expr`` in pre-order."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Apply):
            stack.extend(reversed(node.args))


_free_vars_cache: BoundedMemo[PrimExpr, frozenset[str]] = BoundedMemo(1 << 16)


def free_vars(expr: PrimExpr) -> frozenset[str]:
    """The names of the variables occurring in ``expr``."""
    found = _free_vars_cache.get(expr)
    if found is None:
        names = frozenset(n.name for n in walk(expr) if isinstance(n, Var))
        found = _free_vars_cache.remember(expr, names)
    return found


def substitute(expr: PrimExpr, mapping: Mapping[str, PrimExpr]) -> PrimExpr:
    """Replace variables by expressions; names absent from ``mapping`` stay."""
    if isinstance(expr, Var):
        return mapping.get(expr.name, expr)
    if isinstance(expr, Apply) and not free_vars(expr).isdisjoint(mapping):
        return Apply(expr.op, tuple(substitute(a, mapping) for a in expr.args))
    return expr


def _floordiv(a: Scalar, b: Scalar) -> Scalar:
    if b == 0:
        raise ZeroDivisionError("floordiv by zero")
    return a // b


def _floormod(a: Scalar, b: Scalar) -> Scalar:
    if b == 0:
        raise ZeroDivisionError("floormod by zero")
    return a % b


EVALUATORS: dict[str, Callable[..., Scalar]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "floordiv": _floordiv,
    "floormod": _floormod,
    "min": min,
    "max": max,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "and": lambda a, b: bool(a) and bool(b),
    "or": lambda a, b: bool(a) or bool(b),
    "not": lambda a: not a,
    "select": lambda c, t, f: t if c else f,
}


def evaluate(expr: PrimExpr, env: Mapping[str, int]) -> Scalar:
    """Evaluate ``expr`` with variables bound by ``env``.

    Raises ``KeyError`` for an unbound variable and ``ZeroDivisionError`` for
    a division by zero (``select`` evaluates only the taken branch).
    """
    if isinstance(expr, IntImm | BoolImm | FloatImm):
        return expr.value
    if isinstance(expr, Var):
        return env[expr.name]
    assert isinstance(expr, Apply)
    if expr.op == "select":
        cond, if_true, if_false = expr.args
        return evaluate(if_true if evaluate(cond, env) else if_false, env)
    return EVALUATORS[expr.op](*(evaluate(a, env) for a in expr.args))


def to_text(expr: PrimExpr, parent_precedence: int = 0) -> str:
    """Print ``expr`` in the dialect's syntax (see the module docstring)."""
    if isinstance(expr, IntImm):
        return str(expr.value)
    if isinstance(expr, BoolImm):
        return "true" if expr.value else "false"
    if isinstance(expr, FloatImm):
        return float_text(expr.value)
    if isinstance(expr, Var):
        return expr.name
    assert isinstance(expr, Apply)
    if expr.op in INFIX:
        precedence = PRECEDENCE[expr.op]
        lhs = to_text(expr.args[0], precedence)
        rhs = to_text(expr.args[1], precedence + 1)
        text = f"{lhs} {INFIX[expr.op]} {rhs}"
        return f"({text})" if precedence < parent_precedence else text
    return f"{expr.op}({', '.join(to_text(a) for a in expr.args)})"


def substitution_text(mapping: Mapping[str, PrimExpr]) -> str:
    """``name = expr, ...``: a substitution of variables, as messages show it."""
    return ", ".join(f"{name} = {to_text(expr)}" for name, expr in mapping.items())


def float_text(value: float) -> str:
    """A float literal that MLIR's lexer reads back (always with a ``.``)."""
    text = repr(value)
    if text in ("inf", "-inf", "nan"):
        return text
    if "." not in text:
        mantissa, _, exponent = text.partition("e")
        text = f"{mantissa}.0" + (f"e{exponent}" if exponent else "")
    return text
