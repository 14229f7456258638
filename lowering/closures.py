"""What ``object``-typed values hold, where the lowering can know it statically.

An ``object`` has no lowered form of its own. After ``relax-lambda-lift`` a
closure is ``relax.make_closure @f(captured...)`` (an ``object``) and its calls
are ``relax.invoke_closure %c(args...)``; a value may also be cast to
``object`` and back with ``relax.match_cast``. When what an ``object`` holds is
known statically (its ``Content``), it lowers to the lowered values of what it
holds, and the lowering keeps the content on the side:

========================================  ========================================
``object``-typed Relax value              content (lowered values)
========================================  ========================================
``relax.make_closure @f(%a, %b)``         ``Closure("f", (A, B))`` (those of
                                          ``%a``, then those of ``%b``)
``relax.match_cast %t : object``          ``%t``'s content (``%t``'s values)
a dataflow block's output                 the content of the value it outputs
parameter ``i`` of a private function     the content every call site passes
                                          (``relax.call``, ``make_closure``
                                          captures), when all pass the same,
                                          symbolic variables erased (a
                                          recursive call passing it on aside)
anything else                             unknown: no lowered form
========================================  ========================================

An invocation of a ``Closure`` becomes a call of its function with the captured
values first (as ``relax-lambda-lift`` orders the parameters), a ``match_cast``
of an ``object`` back to a tensor checks against the content's StructInfo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, SSAValue

from relax_dialect.analysis.call_graph import functions
from relax_dialect.analysis.walk import walk_ops
from relax_dialect.ops.alias import AliasOp
from relax_dialect.ops.calls import CallOp
from relax_dialect.ops.core import MakeClosureOp
from relax_dialect.ops.dataflow import DataflowOp
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.ops.match_cast import MatchCastOp
from relax_dialect.ops.references import GlobalVarOp
from relax_dialect.struct_info import OBJECT, erase_vars
from relax_dialect.types import ObjectType, StructInfoType, TupleType


@dataclass(frozen=True)
class Closure:
    """A closure of the global function ``@callee`` whose leading parameters are
    bound to values of the ``captured`` contents."""

    callee: str
    captured: tuple[Content, ...]


Content = StructInfoType | Closure
"""What a value holds: its StructInfo (an ``object``'s: the value cast to it), or a
closure."""


def lowered_type(content: Content) -> StructInfoType:
    """A StructInfo whose lowered values are the content's: a closure's is the tuple
    of its captured values."""
    if isinstance(content, Closure):
        return TupleType([lowered_type(c) for c in content.captured])
    return content


def argument_type(content: Content) -> StructInfoType:
    """The StructInfo of a value with this content, as a call's argument."""
    return OBJECT if isinstance(content, Closure) else content


def _erased(content: Content) -> Content:
    """``content`` without its symbolic variables (which are the caller's)."""
    if isinstance(content, Closure):
        return Closure(content.callee, tuple(_erased(c) for c in content.captured))
    return erase_vars(content, lambda name: False)


class Objects:
    """The content of the values of a module, ``object``-typed ones where known."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self._known: dict[SSAValue, Content | None] = {}

    def content(self, value: SSAValue) -> Content | None:
        """What ``value`` holds: its type unless it is an ``object``, else its known
        content (None: unknown)."""
        if not isinstance(value.type, ObjectType):
            return value.type  # pyright: ignore[reportReturnType]
        if value in self._known:
            return self._known[value]
        self._known[value] = None  # a cycle through parameters: unknown
        found = self._content(value)
        self._known[value] = found
        return found

    def lowered_type(self, value: SSAValue) -> StructInfoType:
        """The StructInfo of ``value``'s lowered values (an unknown ``object``'s: its
        type, which has none)."""
        content = self.content(value)
        return value.type if content is None else lowered_type(content)  # pyright: ignore

    def _content(self, value: SSAValue) -> Content | None:
        owner = value.owner
        if isinstance(owner, MakeClosureOp):
            captured = tuple(self.content(c) for c in owner.captured)
            if any(c is None for c in captured):
                return None
            return Closure(owner.function_name, captured)  # pyright: ignore[reportArgumentType]
        if isinstance(owner, MatchCastOp | AliasOp):
            return self.content(owner.value)
        if isinstance(owner, DataflowOp):
            return self.content(owner.output_op.values[value.index])  # pyright: ignore
        if isinstance(owner, Block) and isinstance(function := owner.parent_op(), FunctionOp):
            return self._parameter(function, value.index)  # pyright: ignore
        return None

    @cached_property
    def _sites(self) -> tuple[dict[str, list[Sequence[SSAValue]]], set[str]]:
        """The leading arguments each function receives at each site, and the
        functions used as values (``relax.global_var``: called from anywhere). Found
        when an ``object`` parameter first needs them: most modules have none."""
        sites: dict[str, list[Sequence[SSAValue]]] = {}
        escaping: set[str] = set()
        for function in functions(self.module):
            for op in walk_ops(function.body):
                if isinstance(op, CallOp):
                    sites.setdefault(op.callee_name, []).append(op.args)
                elif isinstance(op, MakeClosureOp):
                    sites.setdefault(op.function_name, []).append(op.captured)
                elif isinstance(op, GlobalVarOp):
                    escaping.add(op.function.root_reference.data)
        return sites, escaping

    def _parameter(self, function: FunctionOp, index: int) -> Content | None:
        """The content every site passes to parameter ``index`` of a private function
        that is not used as a value (a recursive call passing the parameter on adds
        nothing)."""
        name = function.sym_name.data
        if function.global_symbol is not None:
            return None
        sites, escaping = self._sites
        if name in escaping:
            return None
        param = function.params[index]
        passed: set[Content | None] = set()
        for args in sites.get(name, ()):
            if index >= len(args):
                passed.add(None)  # passed by a closure invocation
            elif args[index] is not param:
                content = self.content(args[index])
                passed.add(None if content is None else _erased(content))
        return passed.pop() if len(passed) == 1 else None
