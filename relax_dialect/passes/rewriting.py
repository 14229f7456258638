"""What the passes share: walking functions and bindings, replacing and erasing
values."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from ..ops.functions import FunctionOp
from ..types import StructInfoType


def functions(module: ModuleOp) -> list[FunctionOp]:
    """The module's global Relax functions, in order."""
    return [op for op in module.body.block.ops if isinstance(op, FunctionOp)]


def function_named(module: ModuleOp, name: str) -> FunctionOp | None:
    return next((f for f in functions(module) if f.sym_name.data == name), None)


def walk_ops(region: Region) -> Iterator[Operation]:
    """Every operation of ``region`` and its nested regions, in program order
    (an operation before the operations of its regions)."""
    for block in region.blocks:
        for op in block.ops:
            yield op
            for inner in op.regions:
                yield from walk_ops(inner)


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
