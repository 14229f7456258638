"""Trivial bindings forwarded to the value they bind (``relax-canonicalize-bindings``,
``canonicalize``)."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ..ops.alias import AliasOp
from ..ops.functions import FunctionLike, LambdaOp
from ..ops.match_cast import MatchCastOp
from ..ops.values import TupleGetItemOp, TupleOp
from ..rewriting.patterns import BindingPattern, Replacement
from ..struct_info import is_base_of
from ..types import TupleType


class Alias(BindingPattern):
    """A ``relax.alias`` is the value it names."""

    def replacement(self, op: AliasOp) -> Replacement | None:
        return Replacement(op.value)


class TrivialMatchCast(BindingPattern):
    """A ``match_cast`` whose value's StructInfo already implies the target is the value."""

    def replacement(self, op: MatchCastOp) -> Replacement | None:
        value = op.value
        if not is_base_of(op.result.type, value.type):  # pyright: ignore[reportArgumentType]
            return None
        return Replacement(value)

    def keeps_struct_info(self, op: MatchCastOp) -> bool:
        """A lambda without a return annotation has the type of what it returns,
        erased of the variables its casts bind: removing a cast that names
        variables (even bound already) would change it."""
        function = op.parent_op()
        while function is not None and not isinstance(function, FunctionLike):
            function = function.parent_op()
        unannotated = isinstance(function, LambdaOp) and function.ret_type is None
        return not (unannotated and op.defined_vars())


class FieldOfTuple(BindingPattern):
    """``tuple_get_item`` of a ``relax.tuple`` is the field."""

    def replacement(self, op: TupleGetItemOp) -> Replacement | None:
        owner = op.tuple_value.owner
        if not isinstance(owner, TupleOp):
            return None
        return Replacement(owner.fields[op.index.data])


class RebuiltTuple(BindingPattern):
    """A ``relax.tuple`` of all the fields of a tuple, in order, is that tuple."""

    def replacement(self, op: TupleOp) -> Replacement | None:
        source = _taken_apart(op)
        return None if source is None else Replacement(source)


def _taken_apart(op: TupleOp) -> SSAValue | None:
    """The tuple whose fields ``op`` takes, all and in order, if any."""
    source = None
    for index, field in enumerate(op.fields):
        owner = field.owner
        if not isinstance(owner, TupleGetItemOp) or owner.index.data != index:
            return None
        if source is None:
            source = owner.tuple_value
        elif owner.tuple_value is not source:
            return None
    if source is None or not isinstance(source.type, TupleType):
        return None
    return source if len(source.type.types) == len(op.fields) else None


PATTERNS: tuple[BindingPattern, ...] = (Alias(), TrivialMatchCast(), FieldOfTuple(), RebuiltTuple())
