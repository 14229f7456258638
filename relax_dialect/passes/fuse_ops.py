"""``relax-fuse-ops``: group the operators of dataflow blocks into fused functions.

TVM's ``FuseOps`` (``src/relax/transform/fuse_ops.cc`` and
``src/relax/analysis/graph_partitioner.cc``). Each dataflow block is a DAG of
bindings; every binding has a pattern kind (an operator's class declares it as
``FUSION``, see ``ops/fusion.py``; ``INJECTIVE`` for ``relax.tuple_get_item``,
``TUPLE`` for a ``relax.tuple`` that only operators use, the callee's
``op_pattern`` attribute for ``relax.call_tir``, ``OPAQUE`` for everything
else). A node is fused into its immediate post-dominator when every path between
them satisfies TVM's rules: element-wise and broadcast chains,
element-wise/broadcast operators into a reduction or an injective consumer, an
out-element-wise-fusable operator (``matmul``, convolutions) with its
element-wise epilogue, injective operators into injective consumers, tuple fields
into injective consumers of the tuple.
Groups merge by union-find; ``max-depth`` bounds their size (tuples, which TVM
writes inline in calls, do not count).

The groups are outlined by ``outline_groups.GroupFuser``; ``relax-fuse-ops``
fuses each group of two bindings or more (tuples left out).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ..analysis.call_graph import kernels
from ..ops.calls import CallTIRInplaceOp, CallTIROp
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionOp
from ..ops.fusion import OpPattern, operator_pattern
from ..ops.operator import OperatorOp
from ..ops.values import TupleGetItemOp, TupleOp
from ..rewriting.outline_groups import (
    CODEGEN,
    NUM_INPUT,
    PRIMITIVE,
    Group,
    GroupFuser,
    block_bindings,
    dataflow_blocks,
    fusible_functions,
)

# --- the dataflow graph and its partition (TVM's GraphPartitioner) --------------------


@dataclass(eq=False, slots=True)
class _Node:
    """A binding of the dataflow block, with the bindings of the block using it."""

    index: int
    op: Operation
    pattern: OpPattern
    extern_ref: bool
    outputs: list[_Node] = field(default_factory=list["_Node"])


@dataclass(eq=False, slots=True)
class _Group:
    """A union-find set of nodes; its root carries the group's pattern and size."""

    pattern: OpPattern
    anchored: bool
    parent: _Group | None = None
    num_nodes: int = 1

    def root(self) -> _Group:
        root = self
        while root.parent is not None:
            root = root.parent
        node = self
        while node.parent is not None and node.parent is not root:
            node.parent, node = root, node.parent
        return root


class _Partitioner:
    """TVM's post-dominator based fusion of one dataflow block's nodes."""

    def __init__(self, nodes: list[_Node], max_depth: int):
        self.nodes = nodes
        self.max_depth = max_depth
        self.groups = [
            _Group(
                n.pattern,
                anchored=n.pattern == OpPattern.OUT_EWISE_FUSABLE,
                num_nodes=0 if n.pattern == OpPattern.TUPLE else 1,
            )
            for n in nodes
        ]
        self.dom_parent: list[int] = [-1] * len(nodes)
        self.dom_depth: list[int] = [0] * len(nodes)
        self.dom_pattern: list[OpPattern] = [OpPattern.OPAQUE] * len(nodes)

    def run(self) -> list[_Group]:
        self._post_dominators()
        for phase in range(3):
            self._fuse(phase)
        return self.groups

    # -- post-dominator tree (single pass over the DAG by least common ancestors) --

    def _post_dominators(self) -> None:
        for node in reversed(self.nodes):
            i = node.index
            if node.extern_ref or not node.outputs:
                self.dom_depth[i] = 1
                continue
            pattern = OpPattern.ELEMWISE
            parent = -1
            for position, output in enumerate(node.outputs):
                if position == 0:
                    parent = output.index
                else:
                    parent, pattern = self._lca(parent, output.index, pattern)
                pattern = max(pattern, output.pattern)
            self.dom_parent[i] = parent
            self.dom_depth[i] = self.dom_depth[parent] + 1 if parent >= 0 else 1
            self.dom_pattern[i] = pattern

    def _lca(self, lhs: int, rhs: int, pattern: OpPattern) -> tuple[int, OpPattern]:
        depth, parent, kinds = self.dom_depth, self.dom_parent, self.dom_pattern
        while lhs != rhs:
            if lhs < 0 or rhs < 0:
                return -1, pattern
            if depth[lhs] < depth[rhs]:
                pattern, rhs = max(pattern, kinds[rhs]), parent[rhs]
            elif depth[rhs] < depth[lhs]:
                pattern, lhs = max(pattern, kinds[lhs]), parent[lhs]
            else:
                pattern = max(pattern, kinds[lhs], kinds[rhs])
                lhs, rhs = parent[lhs], parent[rhs]
        return lhs, pattern

    # -- fusion --

    def _fuse(self, phase: int) -> None:
        groups = self.groups
        for node in self.nodes:
            i = node.index
            group = groups[i]
            parent = self.dom_parent[i]
            if group.pattern == OpPattern.OPAQUE or parent < 0:
                continue
            if self._fused_size(i, parent) > self.max_depth:
                continue
            parent_group = groups[parent]
            if phase == 2:
                self._fuse_into_tuple(i, parent, group, parent_group)
                continue
            if group.root() is parent_group.root() or parent_group.pattern == OpPattern.TUPLE:
                continue
            dom = self.dom_pattern[i]
            if group.pattern == OpPattern.OUT_EWISE_FUSABLE:
                if phase == 0 and dom == OpPattern.ELEMWISE:
                    self._try_fuse(i, parent, _at_most_broadcast)
            elif group.pattern <= OpPattern.BROADCAST:
                if dom <= OpPattern.INJECTIVE or dom == OpPattern.COMM_REDUCE:
                    self._try_fuse(i, parent, _into_anchor)
            elif group.pattern in (OpPattern.INJECTIVE, OpPattern.TUPLE) and phase == 1:
                self._try_fuse(i, parent, _at_most_injective)

    def _fuse_into_tuple(self, i: int, parent: int, group: _Group, parent_group: _Group) -> None:
        """Phase 2: injective nodes into an intermediate tuple fused into an injective group."""
        if group.pattern > OpPattern.INJECTIVE:
            return
        root = parent_group.root()
        if root.pattern == OpPattern.TUPLE:
            return
        if parent_group.pattern == OpPattern.TUPLE and root.pattern <= OpPattern.INJECTIVE:
            self._try_fuse(i, parent, _at_most_injective)

    def _try_fuse(self, src: int, sink: int, condition: Callable[[OpPattern, bool], bool]) -> None:
        if self._check_path(src, sink, condition):
            self._commit(src, sink)

    def _successors(self, start: Sequence[_Node], sink: int) -> Iterator[int]:
        """Nodes on the paths from ``start`` up to ``sink`` (included), once each."""
        seen: set[int] = set()
        stack = [n.index for n in start]
        while stack:
            i = stack.pop()
            if i in seen:
                continue
            seen.add(i)
            yield i
            if i != sink:
                stack.extend(n.index for n in self.nodes[i].outputs)

    def _check_path(
        self, src: int, sink: int, condition: Callable[[OpPattern, bool], bool]
    ) -> bool:
        return all(
            condition(self.groups[i].root().pattern, i == sink)
            for i in self._successors(self.nodes[src].outputs, sink)
        )

    def _commit(self, src: int, sink: int) -> None:
        target = self.groups[sink]
        for i in self._successors([self.nodes[src]], sink):
            if i != sink:
                _merge(self.groups[i], target)

    def _fused_size(self, child: int, parent: int) -> int:
        """Nodes of the parent's group and of the child's paths to it (TVM's count)."""
        inner = sum(
            self.groups[i].num_nodes
            for i in self._successors([self.nodes[child]], parent)
            if i != parent
        )
        return self.groups[parent].root().num_nodes + inner


def _merge(child: _Group, parent: _Group) -> None:
    child, parent = child.root(), parent.root()
    if child is parent:
        return
    parent.num_nodes += child.num_nodes
    child.parent = parent
    if child.anchored:
        parent.anchored = True
        parent.pattern = max(child.pattern, parent.pattern)


def _at_most_broadcast(kind: OpPattern, is_sink: bool) -> bool:
    return kind <= OpPattern.BROADCAST


def _at_most_injective(kind: OpPattern, is_sink: bool) -> bool:
    return kind <= OpPattern.INJECTIVE


def _into_anchor(kind: OpPattern, is_sink: bool) -> bool:
    if not is_sink:
        return kind <= OpPattern.INJECTIVE
    return kind != OpPattern.TUPLE and kind != OpPattern.OPAQUE


# --- nodes of a dataflow block --------------------------------------------------------


class _PatternOf:
    """The pattern kind of each binding of a function's dataflow blocks; ``kernels``
    are the module's ``func.func`` by name."""

    def __init__(self, kernels: dict[str, FuncOp], function: FunctionOp):
        self.kernels = kernels
        num_input = function.attributes.get(NUM_INPUT)
        first = num_input.value.data if isinstance(num_input, IntegerAttr) else None
        params = function.params
        self.weights = set(params[first:]) if first is not None else set()

    def __call__(self, op: Operation) -> OpPattern:
        if isinstance(op, OperatorOp):
            return operator_pattern(op)
        if isinstance(op, TupleGetItemOp):
            weight = op.tuple_value in self.weights
            return OpPattern.OPAQUE if weight else OpPattern.INJECTIVE
        if isinstance(op, TupleOp):
            block = op.parent_block()
            only_operators = all(
                isinstance(use.operation, OperatorOp) and use.operation.parent_block() is block
                for use in op.result.uses
            )
            return OpPattern.TUPLE if only_operators and op.result.uses else OpPattern.OPAQUE
        if isinstance(op, CallTIROp | CallTIRInplaceOp):
            kernel = self.kernels.get(op.callee_name)
            kind = kernel.attributes.get("op_pattern") if kernel is not None else None
            if isinstance(kind, IntegerAttr):
                try:
                    return OpPattern(kind.value.data)
                except ValueError:
                    pass
        return OpPattern.OPAQUE


def partition_block(
    dataflow: DataflowOp, pattern_of: Callable[[Operation], OpPattern], max_depth: int
) -> list[list[Operation]]:
    """The groups of two or more bindings that ``FuseOps`` fuses, each in block order."""
    ops = block_bindings(dataflow)
    exported = set(dataflow.output_op.values)
    nodes: dict[SSAValue, _Node] = {}
    ordered: list[_Node] = []
    for index, op in enumerate(ops):
        node = _Node(index, op, pattern_of(op), any(r in exported for r in op.results))
        for operand in op.operands:
            producer = nodes.get(operand)
            if producer is not None:
                producer.outputs.append(node)
        for result in op.results:
            nodes[result] = node
        ordered.append(node)
    groups = _Partitioner(ordered, max_depth).run()
    members: dict[int, list[Operation]] = {}
    for node, group in zip(ordered, groups, strict=True):
        members.setdefault(id(group.root()), []).append(node.op)
    return [group for group in members.values() if _fusible(group)]


def _fusible(group: list[Operation]) -> bool:
    """Whether a group has two bindings or more besides tuples (TVM writes a tuple
    inline in the call using it: a group of one call and its tuples is one call)."""
    return sum(not isinstance(op, TupleOp) for op in group) > 1


def short_op_name(op: Operation) -> str | None:
    """How an operation names a fused function in ``relax-fuse-ops``: the operator
    without its namespace (``relax.nn.conv2d``: ``conv2d``), a ``call_tir`` callee."""
    if isinstance(op, OperatorOp):
        return op.name.rsplit(".", 1)[-1]
    if isinstance(op, CallTIROp | CallTIRInplaceOp):
        return op.callee_name
    return None


@dataclass(frozen=True)
class FuseOpsPass(ModulePass):
    """Fuse the operators of each dataflow block into private functions marked
    ``Primitive``, following TVM's pattern-kind and post-dominator rules.

    ``fuse-opt-level=0`` disables fusion; ``max-depth`` bounds the number of
    bindings in one fused function. Functions marked ``Primitive`` or
    ``Codegen`` (results of fusion) are left alone."""

    name = "relax-fuse-ops"

    fuse_opt_level: int = 2
    max_depth: int = 256

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.fuse_opt_level == 0:
            return
        fuser = GroupFuser(op, short_op_name)
        tir_kernels = kernels(op)
        for function in fusible_functions(op, (PRIMITIVE, CODEGEN)):
            pattern_of = _PatternOf(tir_kernels, function)
            for dataflow in dataflow_blocks(function):
                groups = partition_block(dataflow, pattern_of, self.max_depth)
                fuser.fuse_block(dataflow, [Group(g) for g in groups], function)
