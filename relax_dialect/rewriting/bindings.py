"""Replacing and erasing bindings, and retyping values."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ..types import StructInfoType


def set_type(value: SSAValue, sinfo: StructInfoType) -> SSAValue:
    """``value`` with StructInfo ``sinfo`` (a new value when it changes; uses follow)."""
    if value.type == sinfo:
        return value
    return Rewriter.replace_value_with_new_type(value, sinfo)


def replace_binding(op: Operation, value: SSAValue) -> None:
    """Replace the result of the binding ``op`` by ``value`` everywhere, then erase it."""
    op.results[0].replace_all_uses_with(value)
    op.detach()
    op.erase()


def erase_unused(op: Operation) -> None:
    """Erase an operation whose results have no uses."""
    assert all(not result.uses for result in op.results)
    op.detach()
    op.erase()
