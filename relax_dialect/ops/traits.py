"""Traits of Relax operations: purity (beside xDSL's ``Pure``), writes in place, and
canonicalization patterns.

Every Relax operation declares its purity in TVM's sense (``FPurity``: running it
has no visible side effect; it may still fail) with a trait: xDSL's ``Pure`` when
it is also free to erase or hoist (what xDSL's own passes take ``Pure`` to mean),
else a ``Purity`` trait. ``analysis.effects.is_pure`` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, OpTrait


@dataclass(frozen=True)
class Purity(OpTrait):
    """The purity of an operation that is not xDSL's ``Pure``."""

    def is_pure(self, op: Operation) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class Impure(Purity):
    """Running the operation may have side effects."""

    def is_pure(self, op: Operation) -> bool:
        return False


@dataclass(frozen=True)
class NoSideEffect(Purity):
    """No side effect of its own, but not free to erase or hoist: a check that may
    fail (``relax.match_cast``), or structure (a function, a block, a branch, a
    terminator) whose nested operations count for themselves."""

    def is_pure(self, op: Operation) -> bool:
        return True


@dataclass(frozen=True)
class InPlace(OpTrait):
    """The operation writes into some of its ``args`` and returns them: its
    ``inplace_indices`` property gives, for each output, the argument it is (-1:
    a fresh output). TVM counts such calls pure, but removing, merging or moving
    one changes what later readers of those arguments see."""

    def outputs(self, op: Operation) -> list[int]:
        """For each output, the index of the argument written as it, or -1."""
        indices = op.properties["inplace_indices"]
        assert isinstance(indices, DenseArrayBase)
        return list(indices.get_values())  # pyright: ignore[reportUnknownArgumentType]


@dataclass(frozen=True)
class Canonicalized(HasCanonicalizationPatternsTrait):
    """The operation's canonicalization patterns are those of
    ``relax_dialect.canonicalization`` for its class, loaded when ``canonicalize``
    first asks (as a family's kernels and lowerings load). Every binding has it."""

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return import_module("relax_dialect.canonicalization").patterns_for(op)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()
