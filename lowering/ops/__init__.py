"""Operator lowerings, one module per operator family, and their registry.

A family module here has the name of the ``relax_dialect/ops`` module defining
its operators (``binary.py`` lowers the operators of ``relax_dialect/ops/binary.py``;
the families are ``relax_dialect.ops.OPERATOR_FAMILIES``) and registers a handler per
operator with ``@lowers(AddOp, SubtractOp, ...)``. ``lowering_for(op)`` imports the
family module of ``op`` the first time one of its operators is lowered, so that adding
a family needs no change here. See ``docs/lowering/framework.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.ir import Operation

from relax_dialect.ops import family_of

from ..lowerer import Handler

LOWERINGS: dict[type[Operation], Handler] = {}
"""The handler of each operator class."""

_LOADED: set[str] = set()


def lowers(*operators: type[Operation]) -> Callable[[Handler], Handler]:
    """Register the decorated function as the lowering of ``operators``."""

    def register(handler: Handler) -> Handler:
        for operator in operators:
            LOWERINGS[operator] = handler
        return handler

    return register


def lowering_for(op: Operation) -> Handler | None:
    """The lowering of operator ``op`` (loading its family), or None if it has none."""
    handler = LOWERINGS.get(type(op))
    if handler is not None:
        return handler
    family = family_of(type(op))
    if family is None or family in _LOADED:
        return None
    _LOADED.add(family)
    import_module(f"{__name__}.{family}")
    return LOWERINGS.get(type(op))
