"""``relax-fuse-by-pattern``: group the bindings that match patterns into functions.

TVM's ``FuseOpsByPattern`` (``src/relax/transform/fuse_ops.cc``). Patterns
(``relax_dialect/patterns.py``) are tried in priority order, each over every
dataflow block; a match is rooted at an operator binding and takes the
bindings its operator, tuple and tuple-get-item sub-patterns matched. A match
whose bindings belong to an earlier match of the same pattern is kept only if
it contains that whole match (so a larger match subsumes a smaller one), and a
match whose escaping values would flow back into it (a cycle) is dropped.
Each group becomes ``relax.function private @fused_<ops>`` with attributes
``Primitive`` and ``Composite = "<pattern name>"``, called with ``relax.call``
(``GroupFuser`` of ``relax-fuse-ops``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ..analysis.call_graph import function_named, functions
from ..analysis.walk import walk_ops
from ..ops.calls import CallOp
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionOp, ReturnOp
from ..ops.operator import OperatorOp
from ..patterns import BUILTIN_PATTERNS, FusionPattern, Match
from ..plugins import plugin_objects
from ..rewriting.outline_groups import (
    CODEGEN,
    COMPOSITE,
    PRIMITIVE,
    Group,
    GroupFuser,
    block_bindings,
    dataflow_blocks,
    fusible_functions,
)


@dataclass(frozen=True)
class FuseByPatternPass(ModulePass):
    """Fuse the bindings matching fusion patterns into private functions marked
    ``Composite`` (TVM's ``FuseOpsByPattern``).

    ``patterns`` lists where the patterns come from, in priority order:
    ``builtin`` (all examples of ``BUILTIN_PATTERNS``), ``builtin:NAME`` (one),
    ``MODULE:ATTR`` or ``FILE.py[:ATTR]`` (a ``FusionPattern``, or a list or
    dict of them; ``ATTR`` defaults to ``PATTERNS``). ``bind-constants=false``
    passes matched constants as arguments instead of copying them in;
    ``annotate-codegen`` calls each composite function through a public
    wrapper with ``Codegen`` (the pattern name's prefix); ``entry-functions``
    limits the functions searched."""

    name = "relax-fuse-by-pattern"

    patterns: tuple[str, ...] = ()
    bind_constants: bool = True
    annotate_codegen: bool = False
    entry_functions: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fusions = [fusion for spec in self.patterns for fusion in load_patterns(spec)]
        fuse_by_pattern(
            op,
            fusions,
            bind_constants=self.bind_constants,
            annotate_codegen=self.annotate_codegen,
            entry_functions=self.entry_functions,
        )


def load_patterns(spec: str) -> list[FusionPattern]:
    """The fusion patterns ``spec`` names (see ``FuseByPatternPass``)."""
    if spec == "builtin":
        return list(BUILTIN_PATTERNS.values())
    source, _, attr = spec.rpartition(":") if ":" in spec else (spec, "", "")
    if source == "builtin":
        if attr not in BUILTIN_PATTERNS:
            known = ", ".join(BUILTIN_PATTERNS)
            raise PassFailedException(
                f"relax-fuse-by-pattern: no built-in pattern '{attr}' ({known})"
            )
        return [BUILTIN_PATTERNS[attr]]
    try:
        return plugin_objects(spec, FusionPattern, "PATTERNS")
    except ValueError as error:
        raise PassFailedException(f"relax-fuse-by-pattern: {error}") from None


def fuse_by_pattern(
    module: ModuleOp,
    patterns: Sequence[FusionPattern],
    *,
    bind_constants: bool = True,
    annotate_codegen: bool = False,
    entry_functions: Sequence[str] = (),
) -> None:
    """Apply ``relax-fuse-by-pattern`` with these patterns (the Python API)."""
    fuser = GroupFuser(module, _op_name, lift_constants=not bind_constants)
    blocks = [(f, d) for f in _searched(module, entry_functions) for d in dataflow_blocks(f)]
    for fusion in patterns:
        for function, dataflow in blocks:
            fuser.fuse_block(dataflow, partition(dataflow, fusion), function)
    if annotate_codegen:
        _annotate_codegen(module, fuser)


def _op_name(op: Operation) -> str | None:
    """How a binding names its fused function (TVM: ``relax.nn.relu`` gives ``relax_nn_relu``)."""
    return op.name.replace(".", "_") if isinstance(op, OperatorOp) else None


def _searched(module: ModuleOp, names: Sequence[str]) -> list[FunctionOp]:
    if not names:
        return fusible_functions(module, (PRIMITIVE, COMPOSITE, CODEGEN))
    found = [function_named(module, name) for name in names]
    for name, function in zip(names, found, strict=True):
        if function is None:
            raise PassFailedException(f"relax-fuse-by-pattern: no Relax function @{name}")
    return found  # pyright: ignore[reportReturnType]


def partition(dataflow: DataflowOp, fusion: FusionPattern) -> list[Group]:
    """The groups of a dataflow block that ``fusion`` matches, in block order."""
    ops = block_bindings(dataflow)
    position = {op: i for i, op in enumerate(ops)}
    group_of: dict[Operation, Group] = {}
    for root in ops:
        found = fusion.match(root, position)
        if found is None:
            continue
        members = set(found.ops)
        if any(not members.issuperset(group_of[op].ops) for op in found.ops if op in group_of):
            continue  # overlaps an earlier match it does not contain
        if _cyclic(found, members, position):
            continue
        attributes = {COMPOSITE: StringAttr(fusion.name)}
        if fusion.attributes is not None:
            attributes |= fusion.attributes(found)
        group = Group(list(found.ops), attributes)
        for op in found.ops:
            group_of[op] = group
    groups = {id(g): g for g in group_of.values()}
    return list(groups.values())


def _cyclic(found: Match, members: set[Operation], position: Mapping[Operation, int]) -> bool:
    """Whether a value of the match used outside it flows back into it: a
    search back from the match's inputs over the bindings after its first
    escaping one (none when no intermediate value escapes)."""
    escaping = [
        position[op]
        for op in found.ops
        if op is not found.root
        and any(use.operation not in members for r in op.results for use in r.uses)
    ]
    if not escaping:
        return False
    first = min(escaping)
    seen: set[Operation] = set()
    work = list(found.ops)
    while work:
        op = work.pop()
        for operand in op.operands:
            owner = operand.owner
            if owner in seen or position.get(owner, -1) < first:  # pyright: ignore[reportArgumentType]
                continue
            if owner in members and op not in members:
                return True
            if owner not in members:
                seen.add(owner)  # pyright: ignore[reportArgumentType]
                work.append(owner)  # pyright: ignore[reportArgumentType]
    return False


def _annotate_codegen(module: ModuleOp, fuser: GroupFuser) -> None:
    """Call each composite function through a public wrapper with ``Codegen`` (the
    pattern name's prefix) and ``global_symbol``."""
    composites = {f.sym_name.data: f for f in functions(module) if COMPOSITE in f.attributes}
    wrappers: dict[str, SymbolRefAttr] = {}
    for function in functions(module):
        if COMPOSITE in function.attributes or CODEGEN in function.attributes:
            continue
        for op in walk_ops(function.body):
            if isinstance(op, CallOp) and (callee := composites.get(op.callee_name)):
                wrapper = wrappers.get(op.callee_name)
                if wrapper is None:
                    wrapper = wrappers[op.callee_name] = _wrap(callee, fuser)
                op.callee = wrapper


def _wrap(composite: FunctionOp, fuser: GroupFuser) -> SymbolRefAttr:
    composite_name = composite.attributes[COMPOSITE]
    assert isinstance(composite_name, StringAttr)
    codegen = composite_name.data.split(".", 1)[0]
    name = fuser.unique_name(f"{composite.sym_name.data}_{codegen}")
    result = composite.result_info()
    body = Block(arg_types=composite.param_types())
    for param, inner in zip(body.args, composite.params, strict=True):
        param.name_hint = inner.name_hint
    call = CallOp(composite.sym_name.data, body.args, result)
    call.result.name_hint = "output"
    body.add_ops([call, ReturnOp(call.result)])
    attributes = {CODEGEN: StringAttr(codegen)}
    wrapper = FunctionOp(name, Region(body), result, attributes=attributes)
    parent = composite.parent_block()
    assert parent is not None
    parent.insert_op_after(wrapper, composite)
    return SymbolRefAttr(name)
