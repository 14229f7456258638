"""Relax operations, one file per operator family.

``OPERATOR_FAMILIES`` names the operator families, in the order of the operator
reference: each is a module here listing its operations in ``OPERATIONS``, and the
same name is the module of its kernels (``relax_dialect/numerics/<family>.py``) and of
its lowerings (``lowering/ops/<family>.py``); ``operator_class`` finds an operator by
name. The other modules here hold the operations of the language itself (functions,
blocks, bindings, calls) and what operators share.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .operator import OperatorOp

OPERATOR_FAMILIES = (
    "unary",
    "binary",
    "ternary",
    "search",
    "statistical",
    "linear_algebra",
    "manipulate",
    "index",
    "create",
    "datatype",
    "memory",
    "qdq",
    "sorting",
    "set",
    "nn",
    "convolution",
    "pooling",
    "image",
    "vision",
    "core",
)
"""The operator families, by module name."""


def operator_families() -> list[ModuleType]:
    """The modules of the operator families, imported, in ``OPERATOR_FAMILIES`` order."""
    return [import_module(f"{__name__}.{family}") for family in OPERATOR_FAMILIES]


def family_of(operation: type) -> str | None:
    """The family of an operation class defined in a family module; None for others."""
    module, _, family = operation.__module__.rpartition(".")
    return family if module == __name__ and family in OPERATOR_FAMILIES else None


@cache
def operators() -> dict[str, type[OperatorOp]]:
    """Every operator of the families by name (``relax.add``), in family order."""
    from .operator import OperatorOp

    return {
        op.name: op
        for family in operator_families()
        for op in family.OPERATIONS
        if issubclass(op, OperatorOp)
    }


def operator_class(name: str) -> type[OperatorOp] | None:
    """The operator named ``name`` (``relax.add``), or None."""
    return operators().get(name)
