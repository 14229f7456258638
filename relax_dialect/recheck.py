"""Checking well-formedness again between passes, skipped when a pass changed nothing.

MLIR's pass manager skips the verifier after a pass that declares it preserved
everything. xDSL passes declare nothing, so here the module itself is compared
with how it was at its last clean check: ``ir_snapshot`` lists, in program
order, every operation with all that the checks read (its parent block,
operands, results and their types, properties, attributes, successors, regions, blocks and
block arguments with their types). Two equal snapshots are the same program,
so the check would find the same nothing. The snapshot holds references, not
copies (no object it names can be freed and its address reused), and is kept
only until the next check, for one module at a time.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from .diagnostics import Diagnostic
from .well_formed import check_well_formed

_LAST_CLEAN: list[tuple[ModuleOp, list[object]]] = []
"""The module last checked clean while another check of it may follow, with its
snapshot: one at a time (the snapshot refers to the module, so a weak mapping
would keep every module alive; a pass that raises between two checks leaves
this one alive until the next check)."""


def ir_snapshot(root: Operation) -> list[object]:
    """``root`` and everything nested in it, flattened in program order, with the
    counts that delimit each operation's parts."""
    snapshot: list[object] = []
    for op in root.walk():
        operands, results = tuple(op.operands), op.results
        properties, attributes = op.properties, op.attributes
        snapshot += (op, op.parent, len(operands), *operands, len(results), *results)
        snapshot += [result.type for result in results]
        snapshot += (len(properties), *properties.keys(), *properties.values())
        snapshot += (len(attributes), *attributes.keys(), *attributes.values())
        successors = tuple(op.successors)
        snapshot += (len(successors), *successors, len(op.regions))
        for region in op.regions:
            snapshot += (region, len(region.blocks))
            for block in region.blocks:
                args = block.args
                snapshot += (block, len(args), *args)
                snapshot += [arg.type for arg in args]
    return snapshot


def recheck_well_formed(module: ModuleOp, again: bool) -> list[Diagnostic]:
    """``check_well_formed(module)``, or no diagnostics without checking when the
    module is exactly as it was at its last clean check here. ``again``: whether
    another check of this module may follow (then a clean result's snapshot is kept)."""
    kept, previous = _LAST_CLEAN.pop() if _LAST_CLEAN else (None, None)
    if kept is not module:
        previous = None
    snapshot = ir_snapshot(module) if again or previous is not None else None
    unchanged = previous is not None and snapshot == previous
    diagnostics = [] if unchanged else check_well_formed(module)
    if again and not diagnostics and snapshot is not None:
        _LAST_CLEAN.append((module, snapshot))
    return diagnostics
