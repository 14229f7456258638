"""The user's Python modules that extend a run (packed functions, fusion patterns),
named by a dotted module name or a ``.py`` path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


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
