"""``relax-normalize``: StructInfo re-inferred everywhere, dataflow blocks consolidated.

Also what other passes share to keep their output in normal form:
``TypeRefiner`` (re-inference that keeps stronger annotations and never makes
a consumer ill-formed), ``callees_first`` and ``consolidate_dataflows``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from ..diagnostics import DiagnosticError, at
from ..ops.base import BindingOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import FunctionLike, FunctionOp, LambdaOp, ReturnOp
from ..ops.match_cast import MatchCastOp
from ..struct_info import Check, base_check, is_base_of
from ..types import StructInfoType
from .rewriting import erase_unused, functions, set_type, walk_ops


@dataclass(frozen=True)
class NormalizePass(ModulePass):
    """Bring every function into normal form, as TVM's ``Normalize``: each binding
    gets the StructInfo its derivation rule infers (a declared type stronger than
    the inferred one is kept, as TVM keeps annotations), adjacent dataflow blocks
    are merged into one and empty ones removed (their results are the outer values
    they export). Functions are visited callees first, so that a call sees the
    final type of a callee without return annotation."""

    name = "relax-normalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        refiner = TypeRefiner()
        for function in callees_first(op):
            normalize_region(function.body, refiner)
            refiner.check_return(function)


def normalize_region(region: Region, refiner: TypeRefiner) -> None:
    """Consolidate the dataflow blocks of ``region`` and re-infer its bindings, in
    program order, nested regions first."""
    for block in region.blocks:
        consolidate_dataflows(block)
        for op in list(block.ops):
            for inner in op.regions:
                normalize_region(inner, refiner)
            refiner.refine(op)


# --- visiting functions in call order ------------------------------------------


def callees_first(module: ModuleOp) -> list[FunctionOp]:
    """The module's functions, each after the functions it refers to (by call,
    global reference or closure); functions on a cycle in module order."""
    table = {f.sym_name.data: f for f in functions(module)}
    callees = {
        function: [table[name] for name in _referenced(function) if name in table]
        for function in table.values()
    }
    order: list[FunctionOp] = []
    seen: set[FunctionOp] = set()
    for root in table.values():
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(callees[root]))]
        while stack:
            node, pending = stack[-1]
            child = next(pending, None)
            if child is None:
                stack.pop()
                order.append(node)
            elif child not in seen:
                seen.add(child)
                stack.append((child, iter(callees[child])))
    return order


def _referenced(function: FunctionOp) -> list[str]:
    return [
        attr.root_reference.data
        for op in walk_ops(function.body)
        for attr in op.properties.values()
        if isinstance(attr, SymbolRefAttr)
    ]


# --- re-inference -----------------------------------------------------------------


class TypeRefiner:
    """Re-infers StructInfo after a change upstream, remembering the type each use
    saw before, so that a consumer a stronger operand type makes ill-formed (a
    call whose argument check would now fail statically: the program fails there
    at run time) gets its old operand type back through a ``relax.match_cast``."""

    def __init__(self) -> None:
        self.previous: dict[tuple[Operation, int], StructInfoType] = {}

    def note_uses(self, value: SSAValue) -> None:
        """Remember the type every current use of ``value`` sees."""
        for use in value.uses:
            self.previous.setdefault((use.operation, use.index), value.type)  # pyright: ignore

    def replace(self, value: SSAValue, new: SSAValue) -> None:
        """Replace every use of ``value`` by ``new``."""
        self.note_uses(value)
        value.replace_all_uses_with(new)

    def set_type(self, value: SSAValue, sinfo: StructInfoType) -> SSAValue:
        if value.type == sinfo:
            return value
        self.note_uses(value)
        return set_type(value, sinfo)

    def refine(self, op: Operation) -> None:
        """Give the results of ``op`` the StructInfo inferred from its operands now."""
        if isinstance(op, DataflowOp):
            for result, value in zip(op.results, op.output_op.values, strict=True):
                self.set_type(result, value.type)  # pyright: ignore[reportArgumentType]
        elif isinstance(op, LambdaOp):
            self.check_return(op)
            self.set_type(op.result, op.function_type())
        elif isinstance(op, BindingOp):
            try:
                self._refine_binding(op)
            except VerifyException as error:
                if not self.restore_operands(op):
                    raise DiagnosticError([at(op, str(error))]) from None
                self._refine_binding(op)

    def _refine_binding(self, op: BindingOp) -> None:
        declared, inferred = op.result_type, op.infer_type()
        if declared != inferred and not strictly_stronger(declared, inferred):  # pyright: ignore
            self.set_type(op.results[0], inferred)
        if any((op, index) in self.previous for index in range(len(op.operands))):
            op.verify_()

    def check_return(self, function: FunctionLike) -> None:
        """Keep the returned value compatible with the return annotation."""
        returned = function.body.block.last_op
        if not isinstance(returned, ReturnOp) or (returned, 0) not in self.previous:
            return
        try:
            function.verify_signature(function.name)
        except VerifyException as error:
            if not self.restore_operands(returned):
                raise DiagnosticError([at(returned, str(error))]) from None

    def restore_operands(self, op: Operation) -> bool:
        """Cast the operands of ``op`` whose type changed back to the type they had;
        whether any was."""
        restored = False
        for index, operand in enumerate(op.operands):
            old = self.previous.get((op, index))
            if old is None or old == operand.type or never_matches(operand, old):
                continue
            cast = MatchCastOp(operand, old)
            cast.result.name_hint = operand.name_hint
            op.parent_block().insert_op_before(cast, op)  # pyright: ignore[reportOptionalMemberAccess]
            op.operands[index] = cast.result
            restored = True
        return restored


def strictly_stronger(declared: StructInfoType, inferred: StructInfoType) -> bool:
    """``declared`` is provably a subtype of ``inferred`` but not equal to it."""
    return is_base_of(inferred, declared) and not is_base_of(declared, inferred)


def never_matches(value: SSAValue, sinfo: StructInfoType) -> bool:
    source = value.type
    assert isinstance(source, StructInfoType)
    return (
        base_check(sinfo, source) == Check.FAIL_STATIC
        and base_check(source, sinfo) == Check.FAIL_STATIC
    )


# --- dataflow blocks ------------------------------------------------------------------


def consolidate_dataflows(block: Block) -> list[DataflowOp]:
    """Merge the adjacent dataflow blocks of ``block`` and remove the empty ones
    (normal form rule 4), as TVM's block builder does when it normalizes a
    sequence; returns the merged blocks.

    A closure in a later block that captures an output of an earlier one could
    not stay in the merged block (it would capture a dataflow variable of its own
    block): it moves out, just before its block, which then stays separate."""
    merged: list[DataflowOp] = []
    group: list[DataflowOp] = []
    group_results: set[SSAValue] = set()

    def flush() -> None:
        if len(group) > 1:
            merged.append(merge_dataflows(group))
        group.clear()
        group_results.clear()

    for op in list(block.ops):
        if not isinstance(op, DataflowOp):
            flush()
            continue
        if group and _hoist_capturing_closures(op, group_results):
            flush()
        if len(op.body.block.ops) == 1:
            remove_empty_dataflow(op)
            continue
        group.append(op)
        group_results.update(op.results)
    flush()
    return merged


def remove_empty_dataflow(dataflow: DataflowOp) -> None:
    """Replace the results of a dataflow block without bindings by the outer values
    it exports, and erase it."""
    for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
        result.replace_all_uses_with(value)
    erase_unused(dataflow)


def _hoist_capturing_closures(dataflow: DataflowOp, earlier: set[SSAValue]) -> bool:
    hoisted = False
    for op in list(dataflow.body.block.ops):
        if isinstance(op, LambdaOp) and any(
            operand in earlier for inner in op.walk() for operand in inner.operands
        ):
            op.detach()
            dataflow.parent_block().insert_op_before(op, dataflow)  # pyright: ignore
            hoisted = True
    return hoisted


def merge_dataflows(group: Sequence[DataflowOp]) -> DataflowOp:
    """One dataflow block for adjacent ones, exporting all their outputs (an output
    of an earlier block used in a later one becomes the inner value there)."""
    target = group[0]
    body, anchor = target.body.block, target.output_op
    inner: dict[SSAValue, SSAValue] = {}
    outputs: list[SSAValue] = []
    for dataflow in group:
        for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
            value = inner.get(value, value)
            inner[result] = value
            outputs.append(value)
    for dataflow in group[1:]:
        for op in list(dataflow.body.block.ops)[:-1]:
            op.detach()
            body.insert_op_before(op, anchor)
    for dataflow in group[:-1]:
        for result in dataflow.results:
            result.replace_uses_with_if(
                inner[result], lambda use: target.is_ancestor(use.operation)
            )
    merged = with_outputs(target, outputs)
    results = [result for dataflow in group for result in dataflow.results]
    for old, new in zip(results, merged.results, strict=True):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    for dataflow in group:
        erase_unused(dataflow)
    return merged


def with_outputs(dataflow: DataflowOp, outputs: Sequence[SSAValue]) -> DataflowOp:
    """A new dataflow block, inserted before ``dataflow``, that takes its body and
    exports ``outputs``; ``dataflow`` is left without a body and its results keep
    their uses (for the caller to redirect)."""
    block = dataflow.body.block
    block.erase_op(dataflow.output_op)
    block.add_op(OutputOp(list(outputs)))
    rebuilt = DataflowOp(dataflow.detach_region(dataflow.body))
    dataflow.parent_block().insert_op_before(rebuilt, dataflow)  # pyright: ignore
    return rebuilt
