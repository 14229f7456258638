"""The operator reference (``docs/operators.md``), generated from the definitions.

    python -m relax_dialect.operator_reference > docs/operators.md

A test compares the checked-in file with the output, so the reference cannot
drift from the code.
"""

from __future__ import annotations

import inspect
from io import StringIO
from types import ModuleType

from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    OptOperandDef,
    OptPropertyDef,
    VarOperandDef,
)
from xdsl.printer import Printer

from .dialect import STRUCTURE
from .ops import operator_families
from .ops.base import BindingOp
from .ops.operator import attribute_kind, print_attribute_entry
from .ops.traits import Impure


def _operands(op: type[Operation]) -> str:
    names = []
    for name, definition in op.get_irdl_definition().operands:
        suffix = "..." if isinstance(definition, VarOperandDef) else ""
        suffix = "?" if isinstance(definition, OptOperandDef) else suffix
        names.append(f"`{name}{suffix}`")
    return ", ".join(names) or "—"


def _attributes(op: type[Operation]) -> str:
    entries = []
    for name, definition in op.get_irdl_definition().properties.items():
        if name == "operandSegmentSizes":
            continue
        kind = attribute_kind(definition.constr)
        if not isinstance(definition, OptPropertyDef):
            entries.append(f"`{name}`: {kind}")
        elif definition.default_value is None:
            entries.append(f"`{name}`: {kind} (optional)")
        else:
            entries.append(f"`{_entry_text(name, definition.default_value)}`: {kind}")
    return "<br>".join(entries) or "—"


def _entry_text(name: str, value: Attribute) -> str:
    """``name = value`` as the custom syntax writes it."""
    stream = StringIO()
    print_attribute_entry(Printer(stream), name, value)
    return stream.getvalue()


def _description(op: type[Operation]) -> str:
    doc = inspect.getdoc(op) or ""
    return " ".join(doc.split()).replace("|", "\\|")  # a bar would end the table cell


def family_title(module: ModuleType) -> str:
    doc = inspect.getdoc(module) or module.__name__
    return " ".join(doc.split("\n\n")[0].split()).removesuffix(".")


def _table(ops: list[type[Operation]]) -> list[str]:
    lines = [
        "| operator | operands | attributes | pure | semantics and inference |",
        "|---|---|---|---|---|",
    ]
    for op in ops:
        pure = "**no**" if op.has_trait(Impure) else "yes"
        lines.append(
            f"| `{op.name}` | {_operands(op)} | {_attributes(op)} | {pure} | {_description(op)} |"
        )
    return lines


def render() -> str:
    """The whole reference as Markdown."""
    families = [(f, list(f.OPERATIONS)) for f in operator_families() if f.OPERATIONS]
    calls = [
        op for op in STRUCTURE if issubclass(op, BindingOp) and op.name.startswith("relax.call")
    ]
    count = sum(len(ops) for _, ops in families) + len(calls)
    lines = [
        "# Operator reference",
        "",
        "Generated from the operator definitions by "
        "`python -m relax_dialect.operator_reference`; do not edit by hand.",
        "",
        f"{count} operators. Operands are SSA values in the order TVM takes them "
        "(`?` optional, `...` variadic); attributes are written "
        "`{name = value}` after the operands; the table shows their defaults (an "
        "optional attribute without one means what the description says).",
        "",
    ]
    for module, ops in families:
        lines += [f"## {family_title(module)}", "", *_table(ops), ""]
    lines += ["## Calls (see the dialect reference)", "", *_table(calls), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
