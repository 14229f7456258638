"""The registry of packed functions that ``relax.call_packed`` and friends call.

Functions are registered by name from Python (``registry.register``), or by a
plugin module that defines ``register_packed_functions(registry)`` (named on
``relax-run``'s command line). Program text never supplies code: a call names
a function, and the registry looks it up.

Built-ins: ``builtin.print`` (prints its arguments, returns the null
object), ``builtin.identity``, ``builtin.add`` (NumPy addition),
``builtin.copy`` (destination-passing: copies its input into its output),
``builtin.shape_of`` (a tensor's shape value), ``builtin.null``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ..plugins import import_plugin
from ..values import NULL, PackedFunc, ShapeValue


class PluginError(Exception):
    """A plugin module that cannot be loaded."""


def _print(*values: object) -> object:
    print(*values)
    return NULL


def _copy(source: np.ndarray, target: np.ndarray) -> None:
    target[...] = source


BUILTINS: Mapping[str, Callable[..., object]] = {
    "builtin.print": _print,
    "builtin.identity": lambda value: value,
    "builtin.add": lambda lhs, rhs: np.add(lhs, rhs),
    "builtin.copy": _copy,
    "builtin.shape_of": lambda tensor: ShapeValue(tuple(tensor.shape)),
    "builtin.null": lambda: NULL,
}


class PackedRegistry:
    """Packed functions by name."""

    def __init__(self, functions: Mapping[str, Callable[..., object]] = BUILTINS):
        self._functions: dict[str, PackedFunc] = {}
        for name, implementation in functions.items():
            self.register(name, implementation)

    def register(self, name: str, implementation: Callable[..., object]) -> None:
        self._functions[name] = PackedFunc(name, implementation)

    def lookup(self, name: str) -> PackedFunc | None:
        return self._functions.get(name)

    def load_plugin(self, plugin: str) -> None:
        """Import a module (by dotted name, or a ``.py`` path) and let it register."""
        try:
            module = import_plugin(plugin)
        except (ImportError, OSError, SyntaxError) as error:
            raise PluginError(f"cannot load plugin '{plugin}': {error}") from None
        register = getattr(module, "register_packed_functions", None)
        if not callable(register):
            raise PluginError(f"plugin '{plugin}' defines no register_packed_functions(registry)")
        register(self)
