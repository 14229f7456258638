"""The user's Python modules that extend a run (packed functions, rewrite and fusion
patterns), named by a dotted module name or a ``.py`` path."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import TypeVar

Item = TypeVar("Item")


def import_plugin(source: str) -> ModuleType:
    """The module ``source`` names: loaded from the file when it ends in ``.py``,
    else imported by name. Raises ``ImportError``, ``OSError`` or ``SyntaxError``."""
    if not source.endswith(".py"):
        return importlib.import_module(source)
    spec = importlib.util.spec_from_file_location(Path(source).stem, source)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the file '{source}'")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def plugin_objects(spec: str, kind: type[Item], default: str) -> list[Item]:
    """The objects ``MODULE:ATTR`` or ``FILE.py[:ATTR]`` names (``ATTR`` defaults to
    ``default``): one of ``kind``, or a list, tuple or dict of them. Raises
    ``ValueError`` with the message to show."""
    source, _, attr = spec.rpartition(":") if ":" in spec else (spec, "", "")
    attr = attr or default
    try:
        module = import_plugin(source)
    except Exception as error:  # the user's code may raise anything while loading
        raise ValueError(f"cannot load {source}: {type(error).__name__}: {error}") from None
    if not hasattr(module, attr):
        raise ValueError(f"{source} defines no {attr}")
    found = getattr(module, attr)
    if isinstance(found, Mapping):
        found = list(found.values())  # pyright: ignore[reportUnknownArgumentType]
    items = list(found) if isinstance(found, list | tuple) else [found]  # pyright: ignore
    for item in items:  # pyright: ignore[reportUnknownVariableType]
        if not isinstance(item, kind):
            hint = " (a class: give an instance)" if isinstance(item, type) else ""
            raise ValueError(f"{source}:{attr} holds {item!r}{hint}, not a {kind.__name__}")
    return items  # pyright: ignore[reportUnknownVariableType]
