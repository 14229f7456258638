"""Which converter turns an ONNX node into Relax, by op type, domain and opset.

A converter registers with ``@converter("Op", since=N)``: it handles the op's
versions from opset ``N`` until the next registration of the op. A model at
opset ``M`` uses the registration with the largest ``since`` not above ``M``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from xdsl.ir import SSAValue

if TYPE_CHECKING:
    from ..context import NodeContext

Converter: TypeAlias = "Callable[[NodeContext], SSAValue | Sequence[SSAValue | None]]"
"""A node's converter: one value, or one entry per ONNX output (None: unused)."""

_CONVERTERS: dict[tuple[str, str], list[tuple[int, Converter]]] = {}
"""The registrations of each (domain, op type), by ascending ``since``."""
_CONTROL_FLOW: set[tuple[str, str]] = set()
"""The (domain, op type)s whose converters emit control flow (``relax.if``, local
functions), which a dataflow block cannot hold."""


def _domain(domain: str) -> str:
    """``ai.onnx`` is another name of the default domain."""
    return "" if domain == "ai.onnx" else domain


def converter(
    *op_types: str, since: int = 1, domain: str = "", control_flow: bool = False
) -> Callable[[Converter], Converter]:
    """Register the decorated function as the converter of ``op_types`` from opset
    ``since`` of ``domain`` on; ``control_flow`` when it emits ``relax.if`` or
    local functions."""

    def register(function: Converter) -> Converter:
        for op_type in op_types:
            if control_flow:
                _CONTROL_FLOW.add((_domain(domain), op_type))
            versions = _CONVERTERS.setdefault((_domain(domain), op_type), [])
            if any(known == since for known, _ in versions):
                raise ValueError(f"{op_type} has a converter since opset {since} already")
            versions.append((since, function))
            versions.sort(key=lambda entry: entry[0])
        return function

    return register


def lookup(op_type: str, domain: str, opset: int) -> Converter | None:
    """The converter of ``op_type`` at ``opset`` of ``domain`` (None: none applies)."""
    versions = _CONVERTERS.get((_domain(domain), op_type))
    if not versions:
        return None
    index = bisect_right([since for since, _ in versions], opset)
    return versions[index - 1][1] if index else None


def emits_control_flow(op_type: str, domain: str) -> bool:
    """Whether the converter of ``op_type`` emits control flow."""
    return (_domain(domain), op_type) in _CONTROL_FLOW


def earliest(op_type: str, domain: str = "") -> int | None:
    """The first opset ``op_type`` has a converter for (None: it has none)."""
    versions = _CONVERTERS.get((_domain(domain), op_type))
    return versions[0][0] if versions else None
