"""Patterns of dataflow bindings, for ``relax-fuse-by-pattern`` (TVM's ``relax.dpl``).

A pattern describes a value by the binding that computes it::

    from relax_dialect.patterns import FusionPattern, is_const, is_op, wildcard

    x, w, bias = wildcard(), wildcard(), wildcard()
    matmul = is_op("relax.matmul")(x, w)
    pattern = is_op("relax.nn.relu")(is_op("relax.add")(matmul, bias))
    fusion = FusionPattern("mylib.matmul_bias_relu", pattern, {"bias": bias})

* ``wildcard()`` matches any value; ``is_const()`` a ``relax.constant``.
* ``is_op(name, ...)`` matches an operator of one of the names, with any
  operands; calling it, ``is_op(name)(a, b)``, requires exactly these operands;
  ``.has_attr(axis=1)`` requires attribute values (Python values, defaults
  included).
* ``is_tuple([a, b])`` and ``is_tuple_get_item(t, 0)`` match ``relax.tuple``
  and ``relax.tuple_get_item`` (any index when it is left out).
* ``p | q`` matches what ``p`` or else ``q`` matches.
* A pattern object used twice must match the same value both times.

The bindings matched by operator, tuple and tuple-get-item patterns form the
match; they must belong to one dataflow block, and the value of each binding
but the root must be used only inside the match (TVM's ``only_used_by``,
which its backends enforce with ``has_leaking_intermediate_variables``).
``p.allow_escape()`` lets the value matched by ``p`` have other uses as well
(TVM's ``used_by``): the fused function then returns it too. Matching starts
at one binding and follows operands, so it costs the size of the pattern.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from xdsl.ir import Attribute, Block, Operation, SSAValue

from .dtype import DataType
from .ops.operator import OperatorOp
from .ops.values import ConstantOp, TupleGetItemOp, TupleOp


class Pattern:
    """A pattern of values (TVM's ``DFPattern``); compared by identity."""

    def __or__(self, other: Pattern) -> Pattern:
        return OrPattern(self, other)

    def allow_escape(self) -> Pattern:
        """This pattern whose matched binding may also be used outside the match."""
        return self

    def roots(self) -> frozenset[str]:
        """The names of the operators a match of this pattern can be rooted at."""
        return frozenset()

    def _match(self, matcher: _Matcher, value: SSAValue) -> bool:
        raise NotImplementedError


@dataclass(frozen=True, eq=False)
class WildcardPattern(Pattern):
    """Any value; its binding, if any, stays outside the match."""

    def _match(self, matcher: _Matcher, value: SSAValue) -> bool:
        return True


@dataclass(frozen=True, eq=False)
class ConstantPattern(Pattern):
    """A ``relax.constant`` (bound into the fused function or passed to it)."""

    def _match(self, matcher: _Matcher, value: SSAValue) -> bool:
        return isinstance(value.owner, ConstantOp)


@dataclass(frozen=True, eq=False)
class _BindingPattern(Pattern):
    """A pattern whose matched binding joins the match."""

    escape: bool = field(default=False, kw_only=True)

    def allow_escape(self) -> Pattern:
        return replace(self, escape=True)

    def _match(self, matcher: _Matcher, value: SSAValue) -> bool:
        op = value.owner
        if not isinstance(op, Operation) or op.parent is not matcher.block:
            return False
        if not self._match_op(matcher, op):
            return False
        matcher.claim(op, self.escape)
        return True

    def _match_op(self, matcher: _Matcher, op: Operation) -> bool:
        raise NotImplementedError


@dataclass(frozen=True, eq=False)
class OpPattern(_BindingPattern):
    """An operator of one of ``names``, with operands matching ``args`` (any
    operands when None) and attributes equal to ``attrs``."""

    names: frozenset[str]
    args: tuple[Pattern, ...] | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict[str, Any])

    def roots(self) -> frozenset[str]:
        return self.names

    def __call__(self, *args: Pattern) -> OpPattern:
        return replace(self, args=args)

    def has_attr(self, **attrs: Any) -> OpPattern:
        """This pattern, requiring attribute values too (lists as tuples)."""
        normal = {k: tuple(v) if isinstance(v, list) else v for k, v in attrs.items()}
        return replace(self, attrs={**self.attrs, **normal})

    def _match_op(self, matcher: _Matcher, op: Operation) -> bool:
        if not isinstance(op, OperatorOp) or op.name not in self.names:
            return False
        for name, expected in self.attrs.items():
            actual = op.attr(name)
            if isinstance(actual, DataType) and isinstance(expected, str):
                expected = DataType.parse(expected)
            if actual != expected:
                return False
        return self.args is None or matcher.match_all(self.args, op.operands)


@dataclass(frozen=True, eq=False)
class TuplePattern(_BindingPattern):
    """A ``relax.tuple`` whose fields match ``fields``."""

    fields: tuple[Pattern, ...]

    def _match_op(self, matcher: _Matcher, op: Operation) -> bool:
        return isinstance(op, TupleOp) and matcher.match_all(self.fields, op.operands)


@dataclass(frozen=True, eq=False)
class TupleGetItemPattern(_BindingPattern):
    """A ``relax.tuple_get_item`` of a tuple matching ``tuple``, at ``index``
    (any index when None)."""

    tuple: Pattern
    index: int | None = None

    def _match_op(self, matcher: _Matcher, op: Operation) -> bool:
        return (
            isinstance(op, TupleGetItemOp)
            and (self.index is None or op.index.data == self.index)
            and matcher.match(self.tuple, op.tuple_value)
        )


@dataclass(frozen=True, eq=False)
class OrPattern(Pattern):
    """What ``left`` matches, or else what ``right`` matches."""

    left: Pattern
    right: Pattern

    def allow_escape(self) -> Pattern:
        return OrPattern(self.left.allow_escape(), self.right.allow_escape())

    def roots(self) -> frozenset[str]:
        return self.left.roots() | self.right.roots()

    def _match(self, matcher: _Matcher, value: SSAValue) -> bool:
        return matcher.attempt(self.left, value) or matcher.attempt(self.right, value)


def wildcard() -> WildcardPattern:
    return WildcardPattern()


def is_const() -> ConstantPattern:
    return ConstantPattern()


def is_op(*names: str) -> OpPattern:
    """An operator named ``names[0]`` or ... (``"relax.matmul"``), any operands."""
    return OpPattern(frozenset(names))


def is_tuple(fields: Sequence[Pattern]) -> TuplePattern:
    return TuplePattern(tuple(fields))


def is_tuple_get_item(tuple_pattern: Pattern, index: int | None = None) -> TupleGetItemPattern:
    return TupleGetItemPattern(tuple_pattern, index)


# --- matching -------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """A match of a pattern (what TVM's ``PatternCheckContext`` holds): the operator
    it is rooted at, its bindings in block order, and the annotated values."""

    root: Operation
    ops: tuple[Operation, ...]
    annotations: Mapping[str, SSAValue]


class _Matcher:
    """The state of one match: the values bound to patterns (undone on a failed
    alternative) and the bindings claimed, with whether each may escape."""

    def __init__(self, block: Block):
        self.block = block
        self.bound: dict[Pattern, SSAValue] = {}
        self.trail: list[Pattern] = []
        self.claimed: list[tuple[Operation, bool]] = []

    def match(self, pattern: Pattern, value: SSAValue) -> bool:
        if pattern in self.bound:
            return self.bound[pattern] is value
        if not pattern._match(self, value):  # pyright: ignore[reportPrivateUsage]
            return False
        self.bound[pattern] = value
        self.trail.append(pattern)
        return True

    def match_all(self, patterns: Sequence[Pattern], values: Sequence[SSAValue]) -> bool:
        return len(patterns) == len(values) and all(map(self.match, patterns, values))

    def attempt(self, pattern: Pattern, value: SSAValue) -> bool:
        """Match, or leave the state as it was."""
        trail, claimed = len(self.trail), len(self.claimed)
        if self.match(pattern, value):
            return True
        for undone in self.trail[trail:]:
            del self.bound[undone]
        del self.trail[trail:]
        del self.claimed[claimed:]
        return False

    def claim(self, op: Operation, escape: bool) -> None:
        self.claimed.append((op, escape))


def match_at(
    pattern: Pattern,
    root: Operation,
    position: Mapping[Operation, int],
    annotations: Mapping[str, Pattern] | None = None,
) -> Match | None:
    """The match of ``pattern`` rooted at the operator ``root`` of a dataflow block
    (``position``: the block's bindings by index), if any; its bindings other
    than the root are used only inside it, but where the pattern allows."""
    block = root.parent
    if not isinstance(root, OperatorOp) or block is None:
        return None
    matcher = _Matcher(block)
    if not matcher.match(pattern, root.results[0]):
        return None
    ops = {op for op, _ in matcher.claimed}
    if root not in ops:  # a wildcard or constant at the top
        return None
    strict = {op for op, escape in matcher.claimed if not escape and op is not root}
    for op in strict:
        for result in op.results:
            if not all(use.operation in ops for use in result.uses):
                return None
    named = {
        name: matcher.bound[p] for name, p in (annotations or {}).items() if p in matcher.bound
    }
    return Match(root, tuple(sorted(ops, key=position.__getitem__)), named)


# --- fusion patterns ------------------------------------------------------------------


@dataclass(frozen=True)
class FusionPattern:
    """A pattern for ``relax-fuse-by-pattern`` (TVM's ``FusionPattern``).

    ``name`` becomes the fused function's ``Composite`` attribute; its prefix
    before the first ``.`` is the ``Codegen`` name under ``annotate-codegen``.
    ``annotations`` names sub-patterns whose values the ``check`` callback (which
    may reject a match) and ``attributes`` (extra function attributes) read."""

    name: str
    pattern: Pattern
    annotations: Mapping[str, Pattern] = field(default_factory=dict[str, Pattern])
    check: Callable[[Match], bool] | None = None
    attributes: Callable[[Match], Mapping[str, Attribute]] | None = None

    @cached_property
    def roots(self) -> frozenset[str]:
        return self.pattern.roots()

    def match(self, root: Operation, position: Mapping[Operation, int]) -> Match | None:
        """The accepted match rooted at ``root`` (see ``match_at``), if any."""
        if root.name not in self.roots:
            return None
        found = match_at(self.pattern, root, position, self.annotations)
        if found is None or (self.check is not None and not self.check(found)):
            return None
        return found


# --- built-in example patterns --------------------------------------------------------

_UNARY = ("relax.exp", "relax.tanh", "relax.sigmoid", "relax.negative", "relax.abs")
_BINARY = ("relax.add", "relax.subtract", "relax.multiply")


def _matmul_family() -> list[FusionPattern]:
    x, w, bias = wildcard(), wildcard(), wildcard()
    matmul = is_op("relax.matmul")(x, w)
    with_bias = is_op("relax.add")(matmul, bias)
    transposed = is_op("relax.matmul")(x, is_op("relax.permute_dims")(w))
    annotations = {"lhs": x, "rhs": w}
    return [
        FusionPattern(
            "builtin.matmul_bias_relu",
            is_op("relax.nn.relu")(with_bias),
            {**annotations, "bias": bias},
        ),
        FusionPattern("builtin.matmul_bias", with_bias, {**annotations, "bias": bias}),
        FusionPattern("builtin.matmul_transposed", transposed, annotations),
        FusionPattern("builtin.matmul", matmul, annotations),
    ]


def _conv2d_family() -> list[FusionPattern]:
    conv = is_op("relax.nn.conv2d")(wildcard(), wildcard())
    bias = is_op("relax.add")(conv, wildcard())
    return [
        FusionPattern("builtin.conv2d_bias_relu", is_op("relax.nn.relu")(bias)),
        FusionPattern("builtin.conv2d_relu", is_op("relax.nn.relu")(conv)),
    ]


def _unary_binary() -> FusionPattern:
    unary = is_op(*_UNARY)(wildcard()).allow_escape()
    return FusionPattern(
        "builtin.unary_binary",
        is_op(*_BINARY)(unary, wildcard()) | is_op(*_BINARY)(wildcard(), unary),
    )


BUILTIN_PATTERNS: dict[str, FusionPattern] = {
    p.name.removeprefix("builtin."): p
    for p in (*_matmul_family(), *_conv2d_family(), _unary_binary())
}
"""Example patterns (``relax-fuse-by-pattern{patterns=builtin}``), by priority:
matmul with bias and ReLU, with bias, with a transposed right operand, alone;
conv2d with bias and ReLU, with ReLU; and an element-wise unary operator
feeding a binary one, whose result may be used elsewhere too."""
