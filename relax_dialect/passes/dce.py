"""``relax-dce``: dead code elimination (TVM's ``DeadCodeElimination``).

Also the helpers the other function-level passes share: the module's symbol
references and call graph (``SymbolUses``, ``symbol_uses``,
``callees_first``), dead-binding removal in a function body
(``eliminate_dead_code``) and dataflow-block normal form
(``prune_outputs``, ``merge_adjacent_dataflows``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from ..graphs import strongly_connected_components
from ..ops.base import BindingOp
from ..ops.calls import CallOp
from ..ops.control_flow import IfOp, YieldOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import FunctionOp, LambdaOp
from ..ops.match_cast import MatchCastOp
from .rewriting import erase_unused, functions


@dataclass(frozen=True)
class DeadCodeEliminationPass(ModulePass):
    """Remove bindings whose value is unused and computed without side effects,
    dataflow outputs nobody reads and the bindings only they needed, dataflow
    blocks left empty, and private functions (``relax.function private``,
    ``func.func private`` kernels) that no public function or
    ``entry-functions`` member reaches through calls, ``relax.global_var``,
    ``relax.make_closure`` or ``call_tir``. ``relax.match_cast`` stays: it checks
    at run time and may bind symbolic variables."""

    name = "relax-dce"

    entry_functions: tuple[str, ...] = ()
    """Private functions to keep as roots, like TVM's ``entry_functions``."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not functions(op):
            return
        symbols = symbol_table(op)
        for name in self.entry_functions:
            if name not in symbols:
                raise PassFailedException(f"relax-dce: entry function @{name} is not defined")

        def is_root(top: Operation) -> bool:
            return is_public(top) or symbol_name(top) in self.entry_functions

        remove_unreachable(op, is_root)
        purity = function_purity(op)
        for function in functions(op):
            eliminate_dead_code(function.body.block, purity)
        remove_unreachable(op, is_root)


# --- symbols and the call graph ------------------------------------------------


def symbol_name(op: Operation) -> str | None:
    name = op.properties.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def symbol_table(module: ModuleOp) -> dict[str, Operation]:
    return {name: op for op in module.body.block.ops if (name := symbol_name(op)) is not None}


def is_public(op: Operation) -> bool:
    """Whether a top-level operation is externally visible (a root of reachability):
    a Relax function with ``global_symbol``, a ``func.func`` not marked ``private``
    (MLIR's default visibility is public), anything else."""
    if isinstance(op, FunctionOp):
        return op.global_symbol is not None
    if isinstance(op, FuncOp):
        visibility = op.sym_visibility
        return visibility is None or visibility.data == "public"
    return True


def function_purity(module: ModuleOp) -> dict[str, bool]:
    """Each Relax function's purity, by name (what a ``relax.call`` of it has)."""
    return {f.sym_name.data: f.pure for f in functions(module)}


def _referenced(attr: Attribute) -> Iterator[str]:
    if isinstance(attr, SymbolRefAttr):
        yield attr.root_reference.data
    elif isinstance(attr, ArrayAttr):
        for item in attr.data:
            yield from _referenced(item)
    elif isinstance(attr, DictionaryAttr):
        for item in attr.data.values():
            yield from _referenced(item)


def op_references(op: Operation) -> Iterator[str]:
    """The symbols one operation names (its own properties and attributes)."""
    for attr in (*op.properties.values(), *op.attributes.values()):
        yield from _referenced(attr)


def remove_unreachable(module: ModuleOp, is_root: Callable[[Operation], bool]) -> set[str]:
    """Erase the functions (``relax.function``, ``func.func``) that no root reaches
    through symbol references; returns the names erased."""
    table = symbol_table(module)
    if all(is_root(op) for op in table.values() if isinstance(op, FunctionOp | FuncOp)):
        return set()
    reached: set[str] = set()
    work = [op for op in module.body.block.ops if is_root(op)]
    for op in work:
        if (name := symbol_name(op)) is not None:
            reached.add(name)
    while work:
        for inner in work.pop().walk():
            for name in op_references(inner):
                if name not in reached and name in table:
                    reached.add(name)
                    work.append(table[name])
    erased = set()
    for name, op in table.items():
        if name not in reached and isinstance(op, FunctionOp | FuncOp):
            op.detach()
            op.erase()
            erased.add(name)
    return erased


@dataclass
class SymbolUses:
    """How a global function is used: the ``relax.call`` operations calling it,
    whether anything else names it (a function value, a closure...), and the
    functions it names itself."""

    calls: list[CallOp] = field(default_factory=list[CallOp])
    escapes: bool = False
    callees: list[str] = field(default_factory=list[str])

    def live_calls(self) -> list[CallOp]:
        """The calls still in the module (erased ones have lost their parent)."""
        self.calls = [c for c in self.calls if _attached(c)]
        return self.calls


def enclosing_function(op: Operation) -> FunctionOp:
    """The global function an operation is in."""
    while not isinstance(op, FunctionOp):
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _attached(op: Operation) -> bool:
    while op.parent is not None:
        parent = op.parent_op()
        if parent is None or isinstance(parent, ModuleOp):
            return True
        op = parent
    return False


def symbol_uses(module: ModuleOp) -> dict[str, SymbolUses]:
    """Every function's uses, by name, from one walk of the module."""
    uses = {name: SymbolUses() for name in symbol_table(module)}
    for top in module.body.block.ops:
        own = uses.get(symbol_name(top) or "")
        seen: set[str] = set()
        for op in top.walk():
            for name in op_references(op):
                if name not in uses:
                    continue
                if isinstance(op, CallOp):
                    uses[name].calls.append(op)
                elif op is not top:
                    uses[name].escapes = True
                if own is not None and name not in seen:
                    seen.add(name)
                    own.callees.append(name)
    return uses


def callees_first(uses: dict[str, SymbolUses]) -> list[list[str]]:
    """The strongly connected components of the reference graph, each after every
    component it references."""
    return strongly_connected_components(uses, lambda name: uses[name].callees)


def is_recursive(component: Sequence[str], uses: dict[str, SymbolUses]) -> bool:
    return len(component) > 1 or component[0] in uses[component[0]].callees


# --- dead bindings ---------------------------------------------------------------


def eliminate_dead_code(block: Block, purity: dict[str, bool]) -> None:
    """Remove the dead bindings of a body block and its nested regions, in one
    backward sweep (every use follows its definition, so a binding is seen after
    all its users are gone), then restore the dataflow normal form.

    A binding is dead when its value is unused and computing it has no effect:
    it is pure (a ``relax.call`` as pure as its callee, ``purity`` by name), not a
    ``relax.match_cast`` (which may fail), not an in-place call (which writes
    into its arguments), and, for an ``if``, so is everything in its branches.
    Defining a closure has no effect."""
    _DeadCode(purity).sweep(block)


def mutates_arguments(op: Operation) -> bool:
    """In-place calls (``call_tir_inplace``, ``call_inplace_packed``) write into
    arguments: TVM counts them pure, but removing or merging one changes what
    later readers of those arguments see."""
    return "inplace_indices" in op.properties


class _DeadCode:
    def __init__(self, purity: dict[str, bool]):
        self.purity = purity
        self.free_regions: dict[Operation, bool] = {}

    def effect_free(self, op: Operation) -> bool:
        if isinstance(op, LambdaOp):
            return True
        if isinstance(op, IfOp | DataflowOp):
            free = self.free_regions.get(op)
            if free is None:
                free = self.free_regions[op] = (isinstance(op, DataflowOp) or op.is_pure()) and all(
                    self.effect_free(inner)
                    for region in op.regions
                    for inner in region.block.ops
                    if not isinstance(inner, YieldOp | OutputOp)
                )
            return free
        if isinstance(op, MatchCastOp) or not isinstance(op, BindingOp) or mutates_arguments(op):
            return False
        if isinstance(op, CallOp):
            return self.purity.get(op.callee_name, False)
        return op.is_pure()

    def is_dead(self, op: Operation) -> bool:
        return (
            bool(op.results)
            and all(result.first_use is None for result in op.results)
            and self.effect_free(op)
        )

    def sweep(self, block: Block) -> None:
        op = block.last_op
        while op is not None:
            previous = op.prev_op
            if isinstance(op, DataflowOp):
                self.sweep_dataflow(op)
            elif self.is_dead(op):
                erase_unused(op)
            else:
                for region in op.regions:
                    self.sweep(region.block)
            op = previous
        merge_adjacent_dataflows(block)

    def sweep_dataflow(self, dataflow: DataflowOp) -> None:
        dataflow = prune_outputs(dataflow, drop_unused=True)
        op = dataflow.output_op.prev_op
        while op is not None:
            previous = op.prev_op
            if self.is_dead(op):
                erase_unused(op)
            else:
                for region in op.regions:
                    self.sweep(region.block)
            op = previous
        if dataflow.body.block.first_op is dataflow.output_op:
            erase_unused(dataflow)


# --- dataflow blocks -------------------------------------------------------------


def defined_in(value: SSAValue, block: Block) -> bool:
    owner = value.owner
    return isinstance(owner, Operation) and owner.parent is block


def with_outputs(dataflow: DataflowOp, kept: Sequence[int]) -> DataflowOp:
    """The dataflow block exporting only its outputs at ``kept`` (the uses of the
    other results must be gone); the kept results' uses follow."""
    values = dataflow.output_op.values
    if len(kept) == len(values):
        return dataflow
    block = dataflow.body.block
    block.erase_op(dataflow.output_op)
    block.add_op(OutputOp([values[i] for i in kept]))
    rebuilt = DataflowOp(dataflow.detach_region(dataflow.body))
    parent = dataflow.parent_block()
    assert parent is not None
    parent.insert_op_before(rebuilt, dataflow)
    for new, old in zip(rebuilt.results, (dataflow.results[i] for i in kept), strict=True):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    erase_unused(dataflow)
    return rebuilt


def prune_outputs(dataflow: DataflowOp, drop_unused: bool) -> DataflowOp:
    """Stop exporting values defined outside the block (their uses take the value
    itself), a value twice (the uses take the first output) and, with
    ``drop_unused``, values nobody reads."""
    block = dataflow.body.block
    kept = []
    exported: dict[SSAValue, SSAValue] = {}
    for index, (result, value) in enumerate(
        zip(dataflow.results, dataflow.output_op.values, strict=True)
    ):
        if drop_unused and result.first_use is None:
            continue
        if not defined_in(value, block):
            result.replace_all_uses_with(value)
            continue
        if value in exported:
            result.replace_all_uses_with(exported[value])
            continue
        exported[value] = result
        kept.append(index)
    return with_outputs(dataflow, kept)


def tidy_dataflow(dataflow: DataflowOp) -> DataflowOp | None:
    """Forward outputs defined outside the block; erase the block if it has no
    binding left (returns ``None`` then)."""
    dataflow = prune_outputs(dataflow, drop_unused=False)
    if dataflow.body.block.first_op is dataflow.output_op:
        erase_unused(dataflow)
        return None
    return dataflow


def merge_adjacent_dataflows(block: Block, ops: Iterable[Operation] | None = None) -> None:
    """Merge each run of adjacent dataflow blocks in ``block`` (among ``ops``, a
    contiguous range of it, or all of it) into one, as the normal form asks.

    A closure in a later block that captures an earlier block's output cannot
    follow it into the merged block (a closure defined in a dataflow block may
    not use that block's variables): it moves in front of its own block, which
    then starts a new run.
    """
    run: list[DataflowOp] = []
    for op in list(block.ops if ops is None else ops):
        if isinstance(op, DataflowOp):
            run.append(op)
            continue
        if len(run) > 1:
            _merge_run(block, run)
        run = []
    if len(run) > 1:
        _merge_run(block, run)


def _position_in_run(
    block: Block, run_index: dict[Operation, int], user: Operation
) -> tuple[int, bool] | None:
    """For a use inside the run: the index of its dataflow block and whether the
    user is directly in it (rather than nested in a closure there)."""
    top = user
    while top.parent is not block:
        parent = top.parent_op()
        if parent is None:
            return None
        top = parent
    index = run_index.get(top)
    if index is None:
        return None
    return index, user.parent_op() is top


def _merge_run(block: Block, run: list[DataflowOp]) -> None:
    run_index: dict[Operation, int] = {op: i for i, op in enumerate(run)}
    hoisted: dict[int, list[Operation]] = {}
    for i, dataflow in enumerate(run):
        for result in dataflow.results:
            for use in list(result.uses):
                where = _position_in_run(block, run_index, use.operation)
                if where is None or where[0] <= i or where[1]:
                    continue
                closure = use.operation
                while closure.parent_op() is not run[where[0]]:
                    closure = closure.parent_op()  # pyright: ignore[reportAssignmentType]
                if closure not in hoisted.setdefault(where[0], []):
                    hoisted[where[0]].append(closure)
    pieces: list[list[DataflowOp]] = [[]]
    for i, dataflow in enumerate(run):
        if i in hoisted:
            for closure in hoisted[i]:
                closure.detach()
                block.insert_op_before(closure, dataflow)
            tidied = tidy_dataflow(dataflow)
            pieces.append([])
            if tidied is None:
                continue
            dataflow = tidied
        pieces[-1].append(dataflow)
    for piece in pieces:
        if len(piece) > 1:
            _merge(block, piece)


def _merge(block: Block, run: list[DataflowOp]) -> DataflowOp:
    """Merge adjacent dataflow blocks none of whose closures capture an earlier
    block's output."""
    first = run[0]
    inner = first.body.block
    run_index: dict[Operation, int] = {op: i for i, op in enumerate(run)}
    exported: list[tuple[SSAValue, SSAValue]] = []
    for i, dataflow in enumerate(run):
        for result, value in zip(dataflow.results, dataflow.output_op.values, strict=True):
            for use in list(result.uses):
                where = _position_in_run(block, run_index, use.operation)
                if where is not None and where[0] > i:
                    use.operation.operands[use.index] = value
            exported.append((result, value))
    output = first.output_op
    for dataflow in run[1:]:
        for op in list(dataflow.body.block.ops):
            if op is not dataflow.output_op:
                op.detach()
                inner.insert_op_before(op, output)
    kept = [(result, value) for result, value in exported if result.first_use is not None]
    inner.erase_op(output)
    inner.add_op(OutputOp([value for _, value in kept]))
    merged = DataflowOp(first.detach_region(first.body))
    block.insert_op_before(merged, first)
    for new, (old, _) in zip(merged.results, kept, strict=True):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    for dataflow in run:
        erase_unused(dataflow)
    return tidy_dataflow(merged) or merged
