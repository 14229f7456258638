"""The reference interpreter: run Relax functions on NumPy values.

    from relax_dialect.interpreter import run
    result = run(module, "main", x, w)

Arrays passed for parameters of shape or prim type become shape and prim
values (see ``relax_dialect.values.to_value``). ``Machine`` keeps compiled
functions between calls and takes a packed-function registry and a ``call_tir``
executor (``relax_dialect.tir_executor``; by default the wired one).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from ..values import to_value
from .machine import Machine, RelaxRuntimeError
from .packed import PackedRegistry, PluginError

__all__ = [
    "Machine",
    "PackedRegistry",
    "PluginError",
    "RelaxRuntimeError",
    "run",
]


def run(module: ModuleOp, entry: str = "main", *args: object, **options: object) -> object:
    """Call ``entry`` with the given arguments (NumPy arrays for tensors; see
    ``relax_dialect.values.to_value`` for the others). Options are ``Machine``'s."""
    machine = Machine(module, **options)  # pyright: ignore[reportArgumentType]
    function = machine.function(entry)
    types = function.op.param_types()
    if len(args) != len(types):
        raise RelaxRuntimeError(None, f"@{entry} takes {len(types)} arguments, got {len(args)}")
    return machine.run(entry, *(to_value(a, t) for a, t in zip(args, types, strict=True)))
