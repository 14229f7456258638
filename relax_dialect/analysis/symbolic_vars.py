"""The symbolic variables operations mention and bind.

What an operation mentions is in what it carries: the types of its results and
of its blocks' arguments, and its properties and attributes that are types,
shapes or expressions (a shape or prim value literal, a function's return
annotation). Two rules read a function type there, as two kinds of callers need:

- ``free_symbolic_vars``: a function type binds the variables of its parameters
  in binding position (``struct_info.used_vars``): what refers to a variable of
  the scope, for scoping questions (is it bound, which cast binds it first, what
  must a lifted closure or an outlined group receive);
- ``symbolic_names``: every name, those a function type binds included, in order
  of appearance: what a renaming must keep apart and a printer must spell.

Where a function binds variables (its parameters, its closures' parameters,
``relax.match_cast``), and what is in scope where, is ``symbolic_scopes``. The
type-level rules (``struct_info.used_vars``, ``definable_vars``) and the
variables a body binds for its result type (``ops.functions.body_local_vars``)
live below the operations, which infer types with them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from xdsl.ir import Attribute, Block, Operation

from ..attributes import PrimExprAttr, ShapeAttr
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionLike, LambdaOp
from ..ops.match_cast import MatchCastOp
from ..prim_expr import PrimExpr, free_vars
from ..struct_info import definable_vars, map_dims, used_vars
from ..types import StructInfoType


def _carried(op: Operation) -> Iterator[Attribute]:
    """The attributes of one operation that may hold symbolic expressions, in the
    order names appear in: properties, result types, block argument types,
    attributes."""
    yield from op.properties.values()
    yield from op.result_types
    for region in op.regions:
        for block in region.blocks:
            yield from block.arg_types
    yield from op.attributes.values()


# --- free variables -----------------------------------------------------------------


def attribute_free_vars(op: Operation) -> set[str]:
    """The symbolic variables one operation's own properties and attributes refer
    to (shape and prim value literals, a function's return annotation)."""
    found: set[str] = set()
    for attrs in (op.properties, op.attributes):
        for attr in attrs.values():
            if isinstance(attr, StructInfoType | ShapeAttr | PrimExprAttr):
                found |= _free_in(attr)
    return found


def free_symbolic_vars(op: Operation) -> set[str]:
    """The symbolic variables ``op`` and the operations nested in it refer to: a
    function type binds its own (see the module's docstring)."""
    names: set[str] = set()
    for inner in op.walk():
        for value in (*inner.results, *(a for r in inner.regions for a in r.block.args)):
            if isinstance(value.type, StructInfoType):
                names |= used_vars(value.type)
        if inner.properties or inner.attributes:
            names |= attribute_free_vars(inner)
    return names


def _free_in(attr: StructInfoType | ShapeAttr | PrimExprAttr) -> frozenset[str]:
    if isinstance(attr, StructInfoType):
        return used_vars(attr)
    if isinstance(attr, ShapeAttr):
        return frozenset(v for dim in attr.data for v in free_vars(dim))
    return free_vars(attr.data)


# --- every name -----------------------------------------------------------------------


@lru_cache(maxsize=1 << 14)
def type_names(sinfo: StructInfoType) -> tuple[str, ...]:
    """Every symbolic variable ``sinfo`` mentions, those a function type binds
    included, in order of appearance (an expression's in name order)."""
    found: dict[str, None] = {}

    def collect(expr: PrimExpr) -> PrimExpr:
        found.update(dict.fromkeys(sorted(free_vars(expr))))
        return expr

    map_dims(sinfo, collect)
    return tuple(found)


def symbolic_names(ops: Iterable[Operation]) -> list[str]:
    """Every symbolic variable ``ops`` and the operations nested in them mention,
    those function types bind included (see the module's docstring), in order of
    appearance."""
    found: dict[str, None] = {}
    for top in ops:
        for op in top.walk():
            for attr in _carried(op):
                if isinstance(attr, StructInfoType):
                    found.update(dict.fromkeys(type_names(attr)))
                elif isinstance(attr, ShapeAttr | PrimExprAttr):
                    exprs = attr.data if isinstance(attr, ShapeAttr) else (attr.data,)
                    for expr in exprs:
                        found.update(dict.fromkeys(sorted(free_vars(expr))))
    return list(found)


# --- scopes ---------------------------------------------------------------------------


@dataclass
class SymbolicScopes:
    """Where a function binds symbolic variables, from one walk of its scopes: a
    closure's and a branch's variables go out of scope at their end, a dataflow
    block's stay after it."""

    binds: dict[Operation, set[str]] = field(default_factory=dict[Operation, set[str]])
    """The variables each binder binds that were not in scope there, in program
    order: the function's and each closure's parameters (keyed by the function or
    ``relax.lambda``), each ``relax.match_cast``."""
    closures: dict[LambdaOp, set[str]] = field(default_factory=dict[LambdaOp, set[str]])
    """The variables in scope where each closure is defined."""

    def variables_by_name(self) -> Counter[str]:
        """How many distinct variables of each name the function binds: a name
        bound again where the first is out of scope (another branch, another
        closure) is another variable."""
        return Counter(name for names in self.binds.values() for name in names)


def symbolic_scopes(function: FunctionLike) -> SymbolicScopes:
    """The scopes of the symbolic variables of ``function`` (and its closures)."""
    scopes = SymbolicScopes()
    scope: set[str] = set()

    def define(binder: Operation, names: set[str], added: list[str]) -> None:
        new = names - scope
        scopes.binds[binder] = new
        scope.update(new)
        added.extend(new)

    def visit_block(block: Block, added: list[str]) -> None:
        for op in block.ops:
            if isinstance(op, MatchCastOp):
                define(op, op.defined_vars(), added)
            elif isinstance(op, DataflowOp):
                visit_block(op.body.block, added)
            elif isinstance(op, LambdaOp):
                visit_function(op)
            else:
                for region in op.regions:
                    visit_scope(region.block, [])

    def visit_scope(block: Block, added: list[str]) -> None:
        visit_block(block, added)
        scope.difference_update(added)

    def visit_function(op: FunctionLike) -> None:
        if isinstance(op, LambdaOp):
            scopes.closures[op] = set(scope)
        added: list[str] = []
        define(op, definable_vars(op.param_types()), added)
        visit_scope(op.body.block, added)

    visit_function(function)
    return scopes


def undefined_vars(function: FunctionLike) -> set[str]:
    """Symbolic variables the function refers to but does not bind."""
    return free_symbolic_vars(function) - set(symbolic_scopes(function).variables_by_name())
