"""The top-level symbols of a module: their names, a table of them, the lookup of
one from anywhere inside (which the operations' verifiers use, so this module
knows no operation class) and the symbols an operation names."""

from __future__ import annotations

from collections.abc import Iterable
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation


def symbol_name(op: Operation) -> str | None:
    """The name ``op`` defines (its ``sym_name``), if any."""
    name = op.properties.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def symbol_table(module: ModuleOp) -> dict[str, Operation]:
    """The module's top-level operations by the names they define."""
    return {name: op for op in module.body.block.ops if (name := symbol_name(op)) is not None}


def lookup_symbol(op: Operation, name: str) -> Operation | None:
    """The top-level operation named ``@name`` in the module enclosing ``op``."""
    module = op
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    if module is None:
        return None
    block = module.body.block
    found = (table := _FOUND.setdefault(module, {})).get(name)
    if found is not None and found.parent is block and symbol_name(found) == name:
        return found
    for candidate in block.ops:
        if symbol_name(candidate) == name:
            table[name] = candidate
            return candidate
    return None


_FOUND: WeakKeyDictionary[ModuleOp, dict[str, Operation]] = WeakKeyDictionary()
"""Per module, symbols found before: calls look up the same callees again and again;
an entry is used only while the operation is still there under that name."""


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
