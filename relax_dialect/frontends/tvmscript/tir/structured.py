"""A loop nest around one computation block, as ``linalg.generic``.

TVM's operators (``te.compute``, and so every kernel of its ONNX importer) are
loop nests whose innermost statement is one block that stores one value at its
spatial axes, after its ``T.init()`` store when it reduces. Such a nest
becomes a ``linalg.generic`` (and one more for the init), which the bundled
interpreter runs on whole arrays and the MLIR toolchain vectorises, where the
loops of ``statements`` run one element at a time. A nest qualifies when

* its loops start at 0 with step 1, and each binds one block axis (``S`` or
  ``R``, with a domain starting at 0);
* the block stores into one buffer, at its spatial axes (each once), over the
  whole buffer (the loop extents are the buffer's sizes), and reads that
  buffer only at the same place;
* every reduction axis indexes a buffer read outside ``T.if_then_else``
  branches at block axes only, over its whole size: those reads are the
  generic's inputs (they give the reduction loops their extents);
* ``T.if_then_else`` branches divide by constants only.

The generic evaluates both branches of ``T.if_then_else`` (an ``arith.select``);
a read in a branch has its indices clamped into the buffer, so that it stays in
bounds where the branch is not taken: where it is taken, TVM's indices are in
bounds, and clamping leaves them as they are. Any other nest is read by
``statements``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineExpr, AffineMap

from ....dtype import DataType
from ..annotations import dotted_name
from .buffers import Buffer
from .expressions import Symbol
from .scalars import INT32, Scalar, common_type, mlir_type
from .statements import IGNORED_IN_BLOCKS, LOOPS, StatementReader

DIVISIONS = ("floordiv", "floormod", "truncdiv", "truncmod", "Div", "Mod")


@dataclass
class Nest:
    """A loop nest of one block, as read from ``ast``."""

    loops: list[tuple[str, ast.expr]] = field(default_factory=list)
    """Loop variables and extents, outermost first."""
    dims: dict[str, int] = field(default_factory=dict)
    """The loop of each loop variable and block axis."""
    reductions: set[int] = field(default_factory=set)
    """The loops of reduction axes."""
    store: ast.Assign | None = None
    init: ast.Assign | None = None


@dataclass
class Generic:
    """The body of a ``linalg.generic`` being read: its operands' elements by the
    text of the read they stand for, the loop (and type) of each axis name, the
    axes read so far, and how deep in ``T.if_then_else`` branches the reader is."""

    operands: dict[str, Scalar]
    axes: dict[str, tuple[int, DataType]]
    indices: dict[int, Scalar] = field(default_factory=dict)
    guarded: int = 0


class StructuredReader(StatementReader):
    """Reads qualifying loop nests as ``linalg.generic``, the others as loops."""

    generic: Generic | None = None

    def _for(self, node: ast.For) -> None:
        nest = self._nest(node)
        if nest is None:
            super()._for(node)
            return
        assert nest.store is not None
        target = nest.store.targets[0]
        assert isinstance(target, ast.Subscript)
        inputs = self._inputs(nest)
        if inputs is None:
            super()._for(node)
            return
        dtypes = [common_type(INT32, self.expr(extent).dtype) for _, extent in nest.loops]
        output = self.buffer(target.value)
        if nest.init is not None:
            spatial = self._indices(target, nest.dims)
            init_dims = {
                name: spatial.index(dim) for name, dim in nest.dims.items() if dim in spatial
            }
            init_dtypes = [dtypes[dim] for dim in spatial]
            self._generic(nest.init, output, [], init_dims, init_dtypes, set())
        self._generic(nest.store, output, inputs, nest.dims, dtypes, nest.reductions)

    # --- matching -----------------------------------------------------------------------

    def _nest(self, node: ast.For) -> Nest | None:
        """The nest ``node`` heads, if it qualifies (reading nothing yet)."""
        nest = Nest()
        statement: ast.stmt = node
        while isinstance(statement, ast.For):
            loops = self._simple_loops(statement)
            if loops is None or len(statement.body) != 1:
                return None
            nest.loops += loops
            statement = statement.body[0]
        if not isinstance(statement, ast.With) or not self._is_block(statement):
            return None
        loop_dims = {name: dim for dim, (name, _) in enumerate(nest.loops)}
        nest.dims.update(loop_dims)
        bound: set[int] = set()
        for inner in statement.body:
            if not self._block_statement(inner, nest, loop_dims, bound):
                return None
        if bound != set(range(len(nest.loops))) or nest.store is None:
            return None
        return nest if self._stores_whole_buffer(nest) else None

    def _simple_loops(self, node: ast.For) -> list[tuple[str, ast.expr]] | None:
        """The variables and extents of a ``for`` from 0 by 1, else None."""
        call = node.iter if isinstance(node.iter, ast.Call) else None
        if call is None or node.orelse or call.keywords:
            return None
        targets = node.target.elts if isinstance(node.target, ast.Tuple) else [node.target]
        names = [target.id for target in targets if isinstance(target, ast.Name)]
        function = self.tir_function(call.func)
        if function == "grid":
            extents = call.args
        elif dotted_name(call.func) == "range" or function in LOOPS:
            zero = (
                bool(call.args)
                and isinstance(call.args[0], ast.Constant)
                and call.args[0].value == 0
            )
            extents = (
                call.args[-1:] if len(call.args) == 1 or (len(call.args) == 2 and zero) else []
            )
        else:
            return None
        if len(names) != len(targets) or len(extents) != len(names):
            return None
        if any(isinstance(extent, ast.Tuple) for extent in extents):
            return None
        return list(zip(names, extents, strict=True))

    def _is_block(self, node: ast.With) -> bool:
        call = node.items[0].context_expr if len(node.items) == 1 else None
        return isinstance(call, ast.Call) and self.tir_function(call.func) in ("sblock", "block")

    def _block_statement(
        self, node: ast.stmt, nest: Nest, loop_dims: dict[str, int], bound: set[int]
    ) -> bool:
        """Whether a statement of the block qualifies; records what it says."""
        call = node.value if isinstance(node, ast.Expr | ast.Assign) else None
        name = dotted_name(call.func) if isinstance(call, ast.Call) else None
        if isinstance(node, ast.Expr) and isinstance(call, ast.Call):
            return self.tir_function(call.func) in IGNORED_IN_BLOCKS
        if (
            isinstance(node, ast.Assign)
            and name is not None
            and name.startswith(f"{self.tir}.axis.")
        ):
            assert isinstance(call, ast.Call)
            return self._axes_qualify(node, call, name.rpartition(".")[2], nest, loop_dims, bound)
        if isinstance(node, ast.With) and self._is_init(node):
            store = node.body[0] if len(node.body) == 1 else None
            nest.init = store if self._is_store(store) else None  # pyright: ignore
            return nest.init is not None
        if self._is_store(node) and nest.store is None:
            nest.store = node  # pyright: ignore[reportAttributeAccessIssue]
            return True
        return False

    @staticmethod
    def _is_store(node: ast.stmt | None) -> bool:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            return False
        target = node.targets[0]
        return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)

    def _axes_qualify(
        self,
        node: ast.Assign,
        call: ast.Call,
        kind: str,
        nest: Nest,
        loop_dims: dict[str, int],
        bound: set[int],
    ) -> bool:
        """Axes bound each to a loop variable, over domains starting at 0."""
        target = node.targets[0]
        names = target.elts if isinstance(target, ast.Tuple) else [target]
        if kind == "remap" and len(call.args) == 2:
            kinds, values = call.args
            if not isinstance(kinds, ast.Constant) or not isinstance(values, ast.List | ast.Tuple):
                return False
            axes = list(zip(str(kinds.value), values.elts, strict=False))
        elif kind in ("spatial", "reduce", "S", "R") and len(call.args) == 2:
            domain, value = call.args
            starts_at_zero = not isinstance(domain, ast.Tuple | ast.List) or (
                isinstance(domain.elts[0], ast.Constant) and domain.elts[0].value == 0
            )
            axes = [("R" if kind in ("reduce", "R") else "S", value)] if starts_at_zero else []
        else:
            return False
        if len(axes) != len(names):
            return False
        for name, (axis_kind, value) in zip(names, axes, strict=True):
            dim = loop_dims.get(value.id) if isinstance(value, ast.Name) else None
            if (
                not isinstance(name, ast.Name)
                or dim is None
                or dim in bound
                or axis_kind not in "SR"
            ):
                return False
            bound.add(dim)
            nest.dims[name.id] = dim
            if axis_kind == "R":
                nest.reductions.add(dim)
        return True

    @staticmethod
    def _indices(target: ast.Subscript, dims: dict[str, int]) -> list[int]:
        """The loops a subscript of block axes names, in order (-1 for others)."""
        parts = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
        return [dims.get(part.id, -1) if isinstance(part, ast.Name) else -1 for part in parts]

    def _stores_whole_buffer(self, nest: Nest) -> bool:
        """The store covers its buffer, reads it only where it stores, and its
        branches divide by constants only; so does the init store."""
        assert nest.store is not None
        target = nest.store.targets[0]
        assert isinstance(target, ast.Subscript)
        buffer = self.lookup(target.value.id) if isinstance(target.value, ast.Name) else None
        spatial = self._indices(target, nest.dims)
        expected = sorted(set(range(len(nest.loops))) - nest.reductions)
        if not isinstance(buffer, Buffer) or sorted(spatial) != expected:
            return False
        if len(buffer.sizes) != len(spatial):
            return False
        for size, dim in zip(buffer.sizes, spatial, strict=True):
            if size is None or size != self.size(nest.loops[dim][1]):
                return False
        place = ast.unparse(target)
        for store in (nest.store, nest.init):
            if store is None:
                continue
            if ast.unparse(store.targets[0]) != place:
                return False
            for load, _ in self._reads(store.value):
                reads_output = isinstance(load.value, ast.Name) and load.value.id == buffer.name
                if reads_output and (store is nest.init or ast.unparse(load) != place):
                    return False
            if not self._divides_by_constants(store.value, False):
                return False
        return True

    def _reads(self, node: ast.expr, guarded: bool = False) -> Iterator[tuple[ast.Subscript, bool]]:
        """The buffer reads of an expression, and whether a branch guards each."""
        if isinstance(node, ast.Subscript):
            yield node, guarded
            return
        branches = isinstance(node, ast.Call) and self.tir_function(node.func) == "if_then_else"
        for position, child in enumerate(ast.iter_child_nodes(node)):
            if isinstance(child, ast.expr):
                yield from self._reads(child, guarded or (branches and position > 1))

    def _divides_by_constants(self, node: ast.expr, guarded: bool) -> bool:
        """Whether every division in a branch of ``T.if_then_else`` is by a constant."""
        divisor = None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv | ast.Mod):
            divisor = node.right
        elif isinstance(node, ast.Call) and self.tir_function(node.func) in DIVISIONS:
            divisor = node.args[-1] if node.args else None
        if guarded and divisor is not None and not isinstance(self.size(divisor), int):
            return False
        branches = isinstance(node, ast.Call) and self.tir_function(node.func) == "if_then_else"
        return all(
            self._divides_by_constants(child, guarded or (branches and position > 1))
            for position, child in enumerate(ast.iter_child_nodes(node))
            if isinstance(child, ast.expr)
        )

    def _inputs(self, nest: Nest) -> list[tuple[ast.Subscript, Buffer]] | None:
        """The reads that become inputs (outside branches, at block axes only, over
        whole buffers); None when they leave a reduction loop without extent."""
        assert nest.store is not None
        found: dict[str, tuple[ast.Subscript, Buffer]] = {}
        covered: set[int] = set()
        output = ast.unparse(nest.store.targets[0])
        for load, guarded in self._reads(nest.store.value):
            buffer = self.lookup(load.value.id) if isinstance(load.value, ast.Name) else None
            dims = self._indices(load, nest.dims)
            if (
                guarded
                or not isinstance(buffer, Buffer)
                or -1 in dims
                or ast.unparse(load) == output
            ):
                continue
            if len(dims) != len(buffer.sizes) or any(
                size is None or size != self.size(nest.loops[dim][1])
                for size, dim in zip(buffer.sizes, dims, strict=True)
            ):
                continue
            found.setdefault(ast.unparse(load), (load, buffer))
            covered.update(dims)
        return list(found.values()) if nest.reductions <= covered else None

    # --- emitting -----------------------------------------------------------------------

    def _generic(
        self,
        store: ast.Assign,
        output: Buffer,
        inputs: Sequence[tuple[ast.Subscript, Buffer]],
        dims: dict[str, int],
        dtypes: Sequence[DataType],
        reductions: set[int],
    ) -> None:
        """A ``linalg.generic`` storing ``store``'s value into ``output``."""
        count = len(dtypes)
        target = store.targets[0]
        assert isinstance(target, ast.Subscript)

        def indexing(subscript: ast.Subscript) -> AffineMapAttr:
            results = tuple(AffineExpr.dimension(dim) for dim in self._indices(subscript, dims))
            return AffineMapAttr(AffineMap(count, 0, results))

        operands = [self.tensors[buffer] for _, buffer in inputs]
        elements = [mlir_type(buffer.dtype) for _, buffer in inputs]
        body = Block(arg_types=[*elements, mlir_type(output.dtype)])
        read = {
            ast.unparse(load): Scalar(arg, buffer.dtype)
            for (load, buffer), arg in zip(inputs, body.args, strict=False)
        }
        read[ast.unparse(target)] = Scalar(body.args[-1], output.dtype)
        with self.into(body):
            self.generic = Generic(read, {name: (dim, dtypes[dim]) for name, dim in dims.items()})
            try:
                value = self.cast(self.expr(store.value), output.dtype)
            finally:
                self.generic = None
            self.emit(YieldOp(value.value))
        iterators = [
            IteratorTypeAttr(IteratorType.REDUCTION if dim in reductions else IteratorType.PARALLEL)
            for dim in range(count)
        ]
        maps = [indexing(load) for load, _ in inputs] + [indexing(target)]
        current = self.tensors[output]
        op = GenericOp(operands, [current], Region(body), maps, iterators, [current.type])
        self.tensors[output] = self.value(op)

    def lookup(self, name: str) -> Symbol | None:
        """In a generic, an axis is its loop's ``linalg.index``."""
        generic = self.generic
        if generic is None or name not in generic.axes:
            return super().lookup(name)
        dim, dtype = generic.axes[name]
        if dim not in generic.indices:
            generic.indices[dim] = self.from_index(self.value(IndexOp(dim)), dtype)
        return generic.indices[dim]

    def load(self, node: ast.Subscript) -> Scalar:
        """In a generic: an input's element, or a read with clamped indices in a
        branch; else a read."""
        if self.generic is None:
            return super().load(node)
        found = self.generic.operands.get(ast.unparse(node))
        if found is not None:
            return found
        if not self.generic.guarded:
            return super().load(node)
        buffer = self.buffer(node.value)
        contents = self.tensors[buffer]
        zero = self.value(arith.ConstantOp(IntegerAttr(0, IndexType())))
        one = self.value(arith.ConstantOp(IntegerAttr(1, IndexType())))
        clamped = []
        for axis, index in enumerate(self.indices(buffer, node)):
            axis_value = self.value(arith.ConstantOp(IntegerAttr(axis, IndexType())))
            last = self.value(arith.SubiOp(self.value(tensor.DimOp(contents, axis_value)), one))
            inside = self.value(arith.MinSIOp(index, last))
            clamped.append(self.value(arith.MaxSIOp(inside, zero)))
        element = mlir_type(buffer.dtype)
        return Scalar(self.value(tensor.ExtractOp(contents, clamped, element)), buffer.dtype)

    def _if_then_else(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """In a generic: both branches evaluated, then selected."""
        if self.generic is None:
            return super()._if_then_else(name, args)
        condition = self.condition(args[0])
        self.generic.guarded += 1
        try:
            a, b = self.match_types(self.expr(args[1]), self.expr(args[2]))
        finally:
            self.generic.guarded -= 1
        return Scalar(self.value(arith.SelectOp(condition.value, a.value, b.value)), a.dtype)
