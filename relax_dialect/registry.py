"""What the lazy registries share (passes, lowering passes, backends): a registry
names the module that defines each entry, and finds the entry there by its name
when it is first asked for."""

from __future__ import annotations

from importlib import import_module
from typing import TypeVar

Entry = TypeVar("Entry")


def class_named(module: str, base: type[Entry], name: str) -> type[Entry]:
    """The subclass of ``base`` that ``module`` (imported now) defines as ``name``:
    its own ``name`` attribute, not one it inherits."""
    loaded = import_module(module)
    for value in vars(loaded).values():
        if isinstance(value, type) and issubclass(value, base) and vars(value).get("name") == name:
            return value
    raise LookupError(f"{module} defines no {base.__name__} named '{name}'")
