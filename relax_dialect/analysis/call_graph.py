"""The module's Relax functions and the references between them: the functions
(``functions``, ``function_named``; ``kernels``: the ``func.func`` ones), what
each refers to and how each is used (``symbol_uses``), the graph's strongly
connected components (callees first, recursion) and what public functions reach
(``remove_unreachable``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from ..ops.calls import CallOp
from ..ops.core import MakeClosureOp
from ..ops.functions import FunctionOp
from ..ops.references import GlobalVarOp
from .symbols import op_references, symbol_name, symbol_table
from .walk import walk_ops

Node = TypeVar("Node", bound=Hashable)


def functions(module: ModuleOp) -> list[FunctionOp]:
    """The module's global Relax functions, in order."""
    return [op for op in module.body.block.ops if isinstance(op, FunctionOp)]


def function_named(module: ModuleOp, name: str) -> FunctionOp | None:
    """The module's ``relax.function @name``, if any."""
    return next((f for f in functions(module) if f.sym_name.data == name), None)


def kernels(module: ModuleOp) -> dict[str, FuncOp]:
    """The module's ``func.func`` operations (what ``call_tir`` calls), by name."""
    return {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, FuncOp)}


def enclosing_function(op: Operation) -> FunctionOp:
    """The global function an operation is in."""
    while not isinstance(op, FunctionOp):
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def referenced_function(op: Operation) -> str | None:
    """The global function an operation calls or refers to, if any."""
    if isinstance(op, GlobalVarOp | MakeClosureOp):
        return op.function.root_reference.data
    if isinstance(op, CallOp):
        return op.callee_name
    return None


# --- reachability ---------------------------------------------------------------


def is_public(op: Operation) -> bool:
    """Whether a top-level operation is externally visible (a root of reachability):
    a Relax function with ``global_symbol``, a ``func.func`` not marked ``private``
    (MLIR's default visibility is public), anything else."""
    if isinstance(op, FunctionOp):
        return op.global_symbol is not None
    if isinstance(op, FuncOp):
        visibility = op.sym_visibility
        return visibility is None or visibility.data == "public"
    return True


def remove_unreachable(module: ModuleOp, is_root: Callable[[Operation], bool]) -> set[str]:
    """Erase the functions (``relax.function``, ``func.func``) that no root reaches
    through symbol references; returns the names erased."""
    table = symbol_table(module)
    if all(is_root(op) for op in table.values() if isinstance(op, FunctionOp | FuncOp)):
        return set()
    reached: set[str] = set()
    work = [op for op in module.body.block.ops if is_root(op)]
    for op in work:
        if (name := symbol_name(op)) is not None:
            reached.add(name)
    while work:
        for inner in work.pop().walk():
            for name in op_references(inner):
                if name not in reached and name in table:
                    reached.add(name)
                    work.append(table[name])
    erased = set()
    for name, op in table.items():
        if name not in reached and isinstance(op, FunctionOp | FuncOp):
            op.detach()
            op.erase()
            erased.add(name)
    return erased


# --- uses -------------------------------------------------------------------------


@dataclass
class SymbolUses:
    """How a global function is used: the ``relax.call`` operations calling it,
    whether anything else names it (a function value, a closure...), and the
    functions it names itself."""

    calls: list[CallOp] = field(default_factory=list[CallOp])
    escapes: bool = False
    callees: list[str] = field(default_factory=list[str])

    def live_calls(self) -> list[CallOp]:
        """The calls still in the module (erased ones have lost their parent)."""
        self.calls = [c for c in self.calls if _attached(c)]
        return self.calls


def _attached(op: Operation) -> bool:
    while op.parent is not None:
        parent = op.parent_op()
        if parent is None or isinstance(parent, ModuleOp):
            return True
        op = parent
    return False


def symbol_uses(module: ModuleOp) -> dict[str, SymbolUses]:
    """Every function's uses, by name, from one walk of the module."""
    uses = {name: SymbolUses() for name in symbol_table(module)}
    for top in module.body.block.ops:
        own = uses.get(symbol_name(top) or "")
        seen: set[str] = set()
        for op in top.walk():
            for name in op_references(op):
                if name not in uses:
                    continue
                if isinstance(op, CallOp):
                    uses[name].calls.append(op)
                elif op is not top:
                    uses[name].escapes = True
                if own is not None and name not in seen:
                    seen.add(name)
                    own.callees.append(name)
    return uses


# --- components -----------------------------------------------------------------


def callees_first(uses: dict[str, SymbolUses]) -> list[list[str]]:
    """The strongly connected components of the reference graph, each after every
    component it references."""
    return strongly_connected_components(uses, lambda name: uses[name].callees)


def is_recursive(component: Sequence[str], uses: dict[str, SymbolUses]) -> bool:
    return len(component) > 1 or component[0] in uses[component[0]].callees


def functions_callees_first(module: ModuleOp) -> list[FunctionOp]:
    """The module's Relax functions, each after the functions it refers to (by
    call, global reference or closure); those on a cycle in module order."""
    table = {function.sym_name.data: function for function in functions(module)}
    position = {name: i for i, name in enumerate(table)}

    def referenced(name: str) -> list[str]:
        return [found for op in walk_ops(table[name].body) for found in op_references(op)]

    return [
        table[name]
        for component in strongly_connected_components(table, referenced)
        for name in sorted(component, key=position.__getitem__)
    ]


def recursive_groups(module: ModuleOp) -> dict[str, frozenset[str]]:
    """For each function on a cycle of calls (``relax.call``) and function values
    (``relax.global_var``: what the well-formedness rules on recursion count),
    the functions of its cycle."""
    edges: dict[str, set[str]] = {}
    for function in functions(module):
        callees = set()
        for op in function.walk():
            if isinstance(op, CallOp):
                callees.add(op.callee_name)
            elif isinstance(op, GlobalVarOp):
                callees.add(op.function.root_reference.data)
        edges[function.sym_name.data] = callees
    groups: dict[str, frozenset[str]] = {}
    for component in strongly_connected_components(edges, lambda name: sorted(edges[name])):
        group = frozenset(component)
        if len(group) > 1 or component[0] in edges[component[0]]:
            for member in group:
                groups[member] = group
    return groups


def strongly_connected_components(
    nodes: Iterable[Node], successors: Callable[[Node], Iterable[Node]]
) -> list[list[Node]]:
    """The strongly connected components of a graph, each listed after every
    component it reaches (Tarjan's algorithm, iterative; linear time).
    Successors that are not among ``nodes`` are ignored."""
    members = dict.fromkeys(nodes)
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    stack: list[Node] = []
    on_stack: set[Node] = set()
    components: list[list[Node]] = []
    for root in members:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(successors(root)))]
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in members:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors(child))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components
