"""Effects of operations, read from their traits: purity (TVM's ``FPurity``) and
writes into arguments (``InPlace``); the purity of a module's functions and of
bindings."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.traits import Pure

from ..ops.base import BindingOp
from ..ops.calls import CallOp
from ..ops.control_flow import IfOp, YieldOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import LambdaOp
from ..ops.match_cast import MatchCastOp
from ..ops.traits import InPlace, Purity
from .call_graph import functions


def is_pure(op: Operation) -> bool:
    """Whether running ``op`` itself has no side effect, as its traits declare
    (xDSL's ``Pure`` or a ``Purity`` trait); an operation without either is not.
    Nested operations count for themselves."""
    purity = _purity(type(op))
    return purity if isinstance(purity, bool) else purity.is_pure(op)


@cache
def _purity(kind: type[Operation]) -> Purity | bool:
    """Whether ``kind``'s operations are pure when xDSL's ``Pure`` (or the lack of
    any trait) decides it, else the ``Purity`` trait that does; once per class."""
    return kind.has_trait(Pure) or kind.get_trait(Purity) or False


def writes_in_place(op: Operation) -> bool:
    """Whether ``op`` writes into some of its arguments (the ``InPlace`` trait)."""
    return _writes_in_place(type(op))


@cache
def _writes_in_place(kind: type[Operation]) -> bool:
    return kind.has_trait(InPlace)


def written_in_place(value: SSAValue) -> bool:
    """Whether an operation writing in place uses ``value`` (another binding of the
    same value is then a different buffer)."""
    return any(writes_in_place(use.operation) for use in value.uses)


def in_place_outputs(op: Operation, count: int) -> list[int]:
    """For each of the ``count`` outputs of ``op``, the index of the argument it
    writes as that output, or -1 for a fresh one (all -1 when it writes nothing
    in place)."""
    trait = op.get_trait(InPlace)
    return [-1] * count if trait is None else trait.outputs(op)


def function_purity(module: ModuleOp) -> dict[str, bool]:
    """Each Relax function's purity, by name (what a ``relax.call`` of it has)."""
    return {f.sym_name.data: f.pure for f in functions(module)}


def is_pure_binding(op: BindingOp, purity: Mapping[str, bool]) -> bool:
    """Whether a binding is pure: a ``relax.call`` as its callee is in ``purity``
    (``function_purity``, which spares looking up the callee at every call),
    others as ``is_pure`` says."""
    if isinstance(op, CallOp):
        return purity.get(op.callee_name, False)
    return is_pure(op)


class EffectFree:
    """Which operations compute their values without effect, so that one whose
    values are unused can go: pure ones (``is_pure_binding``) that are not a
    ``relax.match_cast`` (which may fail) and write nothing in place, an ``if``
    whose branches run only such operations, a dataflow block likewise, and a
    closure (defining one has no effect). Answers for operations with regions are
    remembered."""

    def __init__(self, purity: Mapping[str, bool]):
        self.purity = purity
        self.regions: dict[Operation, bool] = {}

    def __call__(self, op: Operation) -> bool:
        if isinstance(op, LambdaOp):
            return True
        if isinstance(op, IfOp | DataflowOp):
            free = self.regions.get(op)
            if free is None:
                free = self.regions[op] = (isinstance(op, DataflowOp) or is_pure(op)) and all(
                    self(inner)
                    for region in op.regions
                    for inner in region.block.ops
                    if not isinstance(inner, YieldOp | OutputOp)
                )
            return free
        if isinstance(op, MatchCastOp) or not isinstance(op, BindingOp) or writes_in_place(op):
            return False
        return is_pure_binding(op, self.purity)
