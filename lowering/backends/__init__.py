"""Execution engines of Relax functions behind one interface, and their registry.

``BACKENDS`` maps each backend name to the module (in this package) that defines
it; ``backend_named`` loads one on first use, so that a backend's dependencies
(the MLIR toolchain, IREE) are imported only when it runs. A backend module
defines one ``Backend`` subclass whose ``name`` is its registered name. See
``docs/architecture.md`` ("How to add a backend").
"""

from __future__ import annotations

from typing import NamedTuple

from xdsl.dialects.builtin import ModuleOp

from relax_dialect.registry import class_named

from .backend import Backend, Compiled, Program, RunOptions


class Registered(NamedTuple):
    """Where a backend is defined, and what it runs on (for ``--help``)."""

    module: str
    summary: str


BACKENDS: dict[str, Registered] = {
    "reference": Registered("reference", "the Relax interpreter"),
    "lowered": Registered("lowered", "the lowered IR on the bundled interpreter"),
    "mlir": Registered("native", "native code from the MLIR toolchain"),
    "iree": Registered("iree", "IREE's compiler and runtime (the extra relax-xdsl[iree])"),
}
"""The backends by name, in the order ``--backend all`` runs them."""


def backend_named(name: str) -> Backend:
    """The backend registered as ``name`` (``KeyError`` for an unknown one)."""
    return class_named(f"{__name__}.{BACKENDS[name].module}", Backend, name)()


def compile_function(
    module: ModuleOp,
    entry: str = "main",
    backend: str = "reference",
    options: RunOptions | None = None,
    lowered: ModuleOp | None = None,
) -> Compiled:
    """Function ``@entry`` of a Relax module compiled by a backend, to call with
    reference-interpreter values (``relax-run --backend`` from Python); ``lowered``
    is the module's lowered form when the caller already has it."""
    return backend_named(backend).compile(Program(module, options, lowered), entry)
