"""Checking well-formedness again between passes, only where a pass changed something.

MLIR's pass manager skips the verifier after a pass that declares it preserved
everything. xDSL passes declare nothing, so here the module itself is compared
with how it was at its last clean check. ``ir_snapshot`` records, per operation
in program order, all that the checks read of it: where it is (block, region,
parent operation), operands and results with their types, properties,
attributes and successors and, apart, its regions (their blocks, block
arguments with their types, and the operations of each block in order). Two
equal snapshots are the same program, so the check is skipped. Otherwise the
operations' own verifiers run again only for ``stale_operations``: the changed
operations, their ancestors (a verifier may read what is nested in it) and the
operations directly inside an operation whose own record changed (a verifier
may read its parent); the context rules, which span the module, are checked in
full. A snapshot holds references, not copies (no object it names can be freed
and its address reused), and is kept only until the next check, for one module
at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from .diagnostics import Diagnostic
from .well_formed import check_well_formed


@dataclass(frozen=True)
class Snapshot:
    """Per operation, in program order: what its verifier and the checks read of
    it (``own``), and for an operation with regions, their layout (``nested``)."""

    own: dict[Operation, tuple[object, ...]]
    nested: dict[Operation, tuple[object, ...]]


def ir_snapshot(root: Operation) -> Snapshot:
    """``root`` and everything nested in it."""
    own: dict[Operation, tuple[object, ...]] = {}
    nested: dict[Operation, tuple[object, ...]] = {}
    for op in root.walk():
        operands, results = tuple(op.operands), op.results
        properties, attributes = op.properties, op.attributes
        successors = tuple(op.successors)
        own[op] = (
            op.parent,
            op.parent_region(),
            op.parent_op(),
            len(operands),
            *operands,
            *[operand.type for operand in operands],
            len(results),
            *results,
            *[result.type for result in results],
            len(properties),
            *properties.keys(),
            *properties.values(),
            len(attributes),
            *attributes.keys(),
            *attributes.values(),
            *successors,
        )
        if op.regions:
            layout: list[object] = []
            for region in op.regions:
                layout += (region, len(region.blocks))
                for block in region.blocks:
                    args, ops = block.args, tuple(block.ops)
                    layout += (block, len(args), *args, *[arg.type for arg in args])
                    layout += (len(ops), *ops)
            nested[op] = tuple(layout)
    return Snapshot(own, nested)


def stale_operations(now: Snapshot, before: Snapshot) -> set[Operation]:
    """The operations whose verifiers may decide differently ``now`` than ``before``:
    every one in it has its ancestors in it too."""
    stale: set[Operation] = set()

    def with_ancestors(op: Operation | None) -> None:
        while op is not None and op not in stale:
            stale.add(op)
            op = op.parent_op()

    for op, record in now.own.items():
        if before.own.get(op) != record:
            with_ancestors(op)
            for region in op.regions:
                for block in region.blocks:
                    stale.update(block.ops)
    for op, layout in now.nested.items():
        if before.nested.get(op) != layout:
            with_ancestors(op)
    return stale


_LAST_CLEAN: list[tuple[ModuleOp, Snapshot]] = []
"""The module last checked clean while another check of it may follow, with its
snapshot: one at a time (the snapshot refers to the module, so a weak mapping
would keep every module alive; a pass that raises between two checks leaves
this one alive until the next check)."""


def recheck_well_formed(module: ModuleOp, again: bool) -> list[Diagnostic]:
    """``check_well_formed(module)``: skipped when the module is exactly as it was at
    its last clean check here, the operations' own verifiers limited to the stale
    ones when it changed. ``again``: whether another check of this module may
    follow (then a clean result's snapshot is kept)."""
    kept, previous = _LAST_CLEAN.pop() if _LAST_CLEAN else (None, None)
    if kept is not module:
        previous = None
    snapshot = ir_snapshot(module) if again or previous is not None else None
    if previous is None or snapshot is None:
        diagnostics = check_well_formed(module)
    elif snapshot == previous:
        diagnostics = []
    else:
        diagnostics = check_well_formed(module, stale_operations(snapshot, previous))
    if again and not diagnostics and snapshot is not None:
        _LAST_CLEAN.append((module, snapshot))
    return diagnostics
