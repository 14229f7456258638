"""``relax-topological-sort``: reorder bindings by a traversal of their dependencies."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ..analysis.call_graph import functions
from ..analysis.effects import is_pure
from ..analysis.symbolic_vars import free_symbolic_vars, symbolic_scopes
from ..ops.base import RelaxOp
from ..ops.control_flow import IfOp, YieldOp
from ..ops.core import MakeClosureOp
from ..ops.dataflow import DataflowOp, OutputOp
from ..ops.functions import FunctionLike, LambdaOp, ReturnOp
from ..ops.match_cast import MatchCastOp
from ..ops.references import ExternFuncOp, GlobalVarOp, OpRefOp
from ..ops.values import (
    ConstantOp,
    DataTypeImmOp,
    PrimValueOp,
    ShapeOp,
    StringImmOp,
    TupleGetItemOp,
    TupleOp,
)

ORDERS = ("depth-first", "breadth-first")
DIRECTIONS = ("from-inputs", "from-outputs")
INFALLIBLE = (
    ConstantOp,
    ShapeOp,
    PrimValueOp,
    StringImmOp,
    DataTypeImmOp,
    TupleOp,
    TupleGetItemOp,
    GlobalVarOp,
    ExternFuncOp,
    OpRefOp,
    LambdaOp,
    MakeClosureOp,
    IfOp,
    DataflowOp,
    ReturnOp,
    YieldOp,
    OutputOp,
)
"""Operations that cannot fail at run time (their operands are checked statically;
an ``if`` or dataflow block may fail only in the operations it contains)."""


@dataclass(frozen=True)
class TopologicalSortPass(ModulePass):
    """Reorder the bindings of each block in the order of a depth-first or
    breadth-first traversal of the dependency graph, from the function's inputs
    or from its outputs, as TVM's ``TopologicalSort``.

    Dataflow blocks are sorted as TVM sorts them, by one traversal of the whole
    function's graph. Other blocks, which TVM leaves alone, are sorted by a
    traversal of their own bindings, where impure operations keep their order
    and operations that may fail stay between the same impure ones."""

    name = "relax-topological-sort"
    order: str = "depth-first"
    direction: str = "from-inputs"

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise ValueError(f"order must be one of {', '.join(ORDERS)}, got '{self.order}'")
        if self.direction not in DIRECTIONS:
            raise ValueError(
                f"direction must be one of {', '.join(DIRECTIONS)}, got '{self.direction}'"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op):
            self.sort(function, symbolic_scopes(function).binds)

    def sort(self, function: FunctionLike, binds: Binds) -> None:
        """Sort the blocks of ``function``, then those of its closures."""
        pending = [function]
        while pending:
            function = pending.pop()
            blocks = list(_blocks(function.body.block))
            for block in blocks:
                if not isinstance(block.parent_op(), DataflowOp):
                    local = self.ranks(block_graph(block, binds))
                    _reorder(block, local.__getitem__)
                pending.extend(op for op in block.ops if isinstance(op, LambdaOp))
            # the function's graph lists uses in program order: build it once the
            # other blocks are in their final order, so that a second run sees the same
            ranks = self.ranks(function_graph(function, binds))
            for block in blocks:
                if isinstance(block.parent_op(), DataflowOp):
                    _reorder(
                        block,
                        {op: ranks[op.results[0]] for op in block.ops if op.results}.__getitem__,
                    )

    def ranks(self, graph: Graph) -> dict[Hashable, int]:
        """The position of each node in the traversal (emission order)."""
        depth_first = self.order == "depth-first"
        from_inputs = self.direction == "from-inputs"
        forward = graph.users if from_inputs else graph.requirements
        backward = graph.requirements if from_inputs else graph.users
        # TVM pops the first user first when depth-first from the inputs. Breadth-first
        # from the outputs visits requirements in reverse too, unlike TVM, whose
        # order of ties flips on every run: this keeps operand and binding order
        reverse = depth_first == from_inputs
        missing = {node: len(required) for node, required in backward.items()}
        visited: dict[Hashable, int] = {}
        pending = deque([INPUT if from_inputs else OUTPUT])
        while pending:
            node = pending.pop() if depth_first else pending.popleft()
            if node in visited:
                continue
            visited[node] = len(visited)
            adjacent = forward.get(node, [])
            for successor in adjacent:
                missing[successor] -= 1
            for successor in reversed(adjacent) if reverse else adjacent:
                if successor not in visited and missing[successor] == 0:
                    pending.append(successor)
        if not from_inputs:
            return {node: -rank for node, rank in visited.items()}
        return visited


INPUT = "input"
OUTPUT = "output"


class Graph:
    """Dependencies between nodes, each list in the order the uses occur, with
    ``INPUT`` before the nodes that need nothing and ``OUTPUT`` after the nodes
    nothing uses (TVM's ``BindingOrderCollector``)."""

    def __init__(self) -> None:
        self.users: dict[Hashable, list[Hashable]] = {}
        self.requirements: dict[Hashable, list[Hashable]] = {}
        self.bindings: list[Hashable] = []

    def edge(self, source: Hashable, target: Hashable) -> None:
        self.users.setdefault(source, []).append(target)
        self.requirements.setdefault(target, []).append(source)

    def close(self) -> Graph:
        """Connect the bindings without requirements to ``INPUT`` and those without
        users to ``OUTPUT`` (before what the terminator uses), in binding order."""
        unused = [node for node in self.bindings if node not in self.users]
        for node in self.bindings:
            if node not in self.requirements:
                self.edge(INPUT, node)
        for node in unused:
            self.users[node] = [OUTPUT]
        self.requirements[OUTPUT] = unused + self.requirements.get(OUTPUT, [])
        return self


def function_graph(function: FunctionLike, binds: Binds) -> Graph:
    """The dependencies between the values of a function, nested regions included:
    a binding depends on its operands (and a binding inside a branch or closure on
    the outer values it uses), an ``if`` or closure on the value its body yields or
    returns, a dataflow result is the inner value it exports; within a dataflow
    block, a user of a symbolic variable depends on the ``relax.match_cast`` that
    binds it."""
    graph = Graph()
    alias: dict[SSAValue, Hashable] = {}
    defined: set[SSAValue] = set(function.body.block.args)

    def node(value: SSAValue) -> Hashable:
        """The node of ``value``: ``INPUT`` for a value a closure captures."""
        return alias.get(value, value) if value in defined else INPUT

    def visit(block: Block, owner: Hashable) -> None:
        binders: dict[str, SSAValue] = {}
        in_dataflow = isinstance(block.parent_op(), DataflowOp)
        for op in block.ops:
            if isinstance(op, ReturnOp | YieldOp):
                graph.edge(node(op.value), owner)
            elif isinstance(op, DataflowOp):
                visit(op.body.block, OUTPUT)
                for result, value in zip(op.results, op.output_op.values, strict=True):
                    alias[result] = node(value)
                    defined.add(result)
            elif not isinstance(op, OutputOp):
                result = op.results[0]
                graph.bindings.append(result)
                defined.add(result)
                for operand in op.operands:
                    graph.edge(node(operand), result)
                if binders:
                    for name in sorted(free_symbolic_vars(op) & binders.keys()):
                        graph.edge(binders[name], result)
                for inner in op.regions:
                    for arg in inner.block.args:
                        graph.edge(INPUT, arg)
                        defined.add(arg)
                    visit(inner.block, result)
                if in_dataflow and isinstance(op, MatchCastOp):
                    for name in binds[op]:
                        binders.setdefault(name, result)

    for arg in function.body.block.args:
        graph.edge(INPUT, arg)
    visit(function.body.block, OUTPUT)
    return graph.close()


def block_graph(block: Block, binds: Binds) -> Graph:
    """The dependencies between the operations of a block outside dataflow blocks:
    on the values they use (inside their regions too), on the binders of the
    symbolic variables they mention, and the order of effects: impure operations
    keep their order, and an operation that may fail stays between the same
    impure operations. A dataflow block stays between the same operations (no
    binding moves past it, so no two dataflow blocks come together)."""
    graph = Graph()
    defined: dict[SSAValue, Operation] = {}
    position: dict[Operation, int] = {}
    binders: dict[str, Operation] = {}
    barrier: Operation | None = None
    since_barrier: list[Operation] = []
    since_impure: list[Operation] = []
    terminator = block.last_op
    for op in block.ops:
        if op is terminator:
            break
        graph.bindings.append(op)
        for operand in op.operands:
            if (source := defined.get(operand)) is not None:
                graph.edge(source, op)
        required: set[Operation] = set()
        for region in op.regions:
            required.update(defined[v] for v in _used_values(region) if v in defined)
        if binders:
            required.update(binders[name] for name in free_symbolic_vars(op) & binders.keys())
        impure, fallible = _effects(op)
        if isinstance(op, DataflowOp):
            required.update(since_barrier)
        elif impure:
            required.update(since_impure)
        if barrier is not None and (impure or fallible or isinstance(barrier, DataflowOp)):
            required.add(barrier)
        for source in sorted(required, key=position.__getitem__):
            graph.edge(source, op)
        if isinstance(op, DataflowOp) or impure:
            barrier = op
            since_impure = []
            since_barrier = []
        else:
            since_barrier.append(op)
            if fallible:
                since_impure.append(op)
        for name in _bound_vars(op, binds):
            binders.setdefault(name, op)
        for result in op.results:
            defined[result] = op
        position[op] = len(position)
    if terminator is not None:
        for value in terminator.operands:
            if (source := defined.get(value)) is not None:
                graph.edge(source, OUTPUT)
    return graph.close()


def _used_values(region: Region) -> Iterator[SSAValue]:
    """The operands of the operations of ``region``, nested ones included."""
    for block in region.blocks:
        for op in block.ops:
            yield from op.operands
            for inner in op.regions:
                yield from _used_values(inner)


def _effects(op: Operation) -> tuple[bool, bool]:
    """Whether running ``op`` has side effects, and whether it may fail."""
    impure = fallible = False
    for inner in _executed(op):
        impure = impure or (isinstance(inner, RelaxOp) and not is_pure(inner))
        fallible = fallible or not isinstance(inner, INFALLIBLE)
    return impure, fallible


def _executed(op: Operation) -> Iterator[Operation]:
    """``op`` and the operations its own execution runs (not a closure's body)."""
    yield op
    if not isinstance(op, LambdaOp):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    yield from _executed(inner)


def _bound_vars(op: Operation, binds: Binds) -> set[str]:
    """Symbolic variables a cast binds in the scope of the block of ``op``."""
    if isinstance(op, MatchCastOp):
        return binds[op]
    if isinstance(op, DataflowOp):
        return {
            name
            for inner in op.body.block.ops
            if isinstance(inner, MatchCastOp)
            for name in binds[inner]
        }
    return set()


Binds = dict[Operation, set[str]]
"""The symbolic variables each binder binds (``SymbolicScopes.binds``)."""


def _blocks(block: Block) -> Iterator[Block]:
    """``block`` and the blocks nested in it, not those of closures."""
    yield block
    for op in block.ops:
        if not isinstance(op, LambdaOp):
            for region in op.regions:
                yield from _blocks(region.block)


def _reorder(block: Block, rank: Callable[[Operation], int]) -> None:
    """Put the operations of ``block`` (its terminator last) in order of rank."""
    ops = list(block.ops)[:-1]
    ordered = sorted(ops, key=rank)
    if ordered == ops:
        return
    terminator = block.last_op
    assert terminator is not None
    for op in ordered:
        op.detach()
        block.insert_op_before(op, terminator)
