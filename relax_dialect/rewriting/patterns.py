"""Local rewrites of one binding, as xDSL ``RewritePattern``s that two drivers apply.

A ``BindingPattern`` says what replaces a binding (``replacement``) without changing
the IR. Its ``match_and_rewrite`` applies that for xDSL's drivers
(``canonicalize``, ``PatternRewriteWalker``), where StructInfo never changes: the
replacing value must have the binding's StructInfo (a new operation takes it when
what it infers is at least as precise). ``FunctionWalk``, the walk of the passes
that refine StructInfo, applies the same patterns itself: there a more precise
value may replace the binding and its users are re-inferred.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, get_args, get_type_hints

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from ..struct_info import is_base_of
from ..types import StructInfoType
from .bindings import set_type


@dataclass
class Replacement:
    """What replaces a binding: new operations, inserted before it, and the value."""

    value: SSAValue
    ops: list[Operation] = field(default_factory=list)
    binding_type: StructInfoType | None = None
    """The binding's type the value is compared with (by default its current type)."""
    on_commit: Callable[[], None] | None = None
    """Called once the replacement is made (it may be refused)."""

    @property
    def fresh(self) -> bool:
        """Whether the value is made by the replacement's own operations."""
        return any(self.value.owner is op for op in self.ops)

    def discard(self) -> None:
        """Erase the operations of a replacement that is not made."""
        for op in reversed(self.ops):
            op.erase()

    def settled(self, binding: SSAValue, refine: bool) -> SSAValue | None:
        """The value to replace ``binding`` with: the replacement's value when its
        StructInfo is the binding's, or more precise where StructInfo may be refined
        (``refine``); a new operation's value takes the binding's StructInfo when
        it may not. None (the replacement discarded) when it would lose precision."""
        expected = self.binding_type or binding.type
        value = self.value
        fresh = self.fresh
        if value.type != expected:
            if not is_base_of(expected, value.type):  # pyright: ignore[reportArgumentType]
                self.discard()
                return None
            if fresh and not refine:
                value = set_type(value, expected)  # pyright: ignore[reportArgumentType]
            elif not refine:
                self.discard()
                return None
        if fresh and not value.name_hint:
            value.name_hint = binding.name_hint
        return value


class RootedPattern(RewritePattern):
    """A pattern that rewrites the operations of given classes (``root``), with a
    one-line docstring saying what it rewrites."""

    root: ClassVar[tuple[type[Operation], ...]]
    """The operation classes it rewrites (their subclasses too)."""


class BindingPattern(RootedPattern):
    """A local rewrite of one kind of binding (``root``, the annotation of
    ``replacement``'s operand)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "replacement" in vars(cls):
            hint = get_type_hints(cls.replacement)["op"]
            cls.root = get_args(hint) or (hint,)

    @abstractmethod
    def replacement(self, op: Operation) -> Replacement | None:
        """What replaces ``op`` (None: it stays); the IR is not changed."""

    def keeps_struct_info(self, op: Operation) -> bool:
        """Whether replacing ``op`` leaves every other StructInfo as it is, as
        xDSL's drivers need (they cannot re-infer what depends on it)."""
        return True

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.root) or op.parent is None or not self.keeps_struct_info(op):
            return
        found = self.replacement(op)
        if found is None:
            return
        value = found.settled(op.results[0], refine=False)
        if value is not None:
            rewriter.replace(op, found.ops, [value])
