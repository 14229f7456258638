"""The module's symbols and call graph, shared by the function-level passes:
symbol tables, what reaches what (``remove_unreachable``), how each function is
used (``SymbolUses``, ``symbol_uses``) and the functions in callee-first order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from ..graphs import strongly_connected_components
from ..ops.calls import CallOp
from ..ops.functions import FunctionOp
from .rewriting import functions, walk_ops


def symbol_name(op: Operation) -> str | None:
    name = op.properties.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def symbol_table(module: ModuleOp) -> dict[str, Operation]:
    return {name: op for op in module.body.block.ops if (name := symbol_name(op)) is not None}


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


def function_purity(module: ModuleOp) -> dict[str, bool]:
    """Each Relax function's purity, by name (what a ``relax.call`` of it has)."""
    return {f.sym_name.data: f.pure for f in functions(module)}


REFERENCING = (SymbolRefAttr, ArrayAttr, DictionaryAttr)
"""The attributes that may name a symbol, directly or inside."""


def _collect_references(attrs: Iterable[Attribute], names: list[str]) -> None:
    for attr in attrs:
        if isinstance(attr, SymbolRefAttr):
            names.append(attr.root_reference.data)
        elif isinstance(attr, ArrayAttr):
            _collect_references(attr.data, names)
        elif isinstance(attr, DictionaryAttr):
            _collect_references(attr.data.values(), names)


def op_references(op: Operation) -> list[str]:
    """The symbols one operation names (its own properties and attributes)."""
    names: list[str] = []
    for attrs in (op.properties, op.attributes):
        if attrs:
            _collect_references(attrs.values(), names)
    return names


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


def enclosing_function(op: Operation) -> FunctionOp:
    """The global function an operation is in."""
    while not isinstance(op, FunctionOp):
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


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
