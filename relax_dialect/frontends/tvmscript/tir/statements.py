"""TIR statements read from ``ast`` into ``scf``/``tensor`` operations.

Buffers are values: each store is a ``tensor.insert`` whose result is the
buffer's new contents. A loop carries the buffers its body stores into as
``scf.for`` iteration arguments, an ``if`` (and a block's ``T.where`` and
``T.init()``) yields them from both branches of an ``scf.if``. A block binds
its axes to their values and runs its ``T.init()`` statements first, when every
reduction axis is at the start of its domain, as TVM does.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region

from ....dtype import BOOL, DataType
from ..annotations import TVMScriptError, dotted_name
from .buffers import Buffer, Size
from .expressions import ExpressionReader, dtype_named
from .scalars import FLOAT32, INT32, Scalar, common_type

LOOPS = ("serial", "parallel", "vectorized", "unroll")
"""TIR loop kinds, all run in order (a well-formed program cannot tell)."""
IGNORED_IN_BLOCKS = ("reads", "writes", "block_attr")
"""Block annotations with no effect on what a block computes."""
AXES = ("spatial", "reduce", "scan", "opaque", "S", "R")
OUTSIDE = (
    "legalize the operator in TVM first, or write the kernel as a destination-passing "
    "func.func in MLIR (docs/tvmscript.md)"
)
"""What to do about a construct outside the TIR subset."""


def stored_names(body: Sequence[ast.stmt]) -> list[str]:
    """The names of the buffers ``body`` stores into (``A[i] = ...``), in order."""
    names: list[str] = []
    for node in (inner for statement in body for inner in ast.walk(statement)):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AugAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                names.append(target.value.id)
    return list(dict.fromkeys(names))


class StatementReader(ExpressionReader):
    """Reads the statements of a TIR function into the current block."""

    @contextmanager
    def scope(self) -> Iterator[None]:
        self.names.append({})
        try:
            yield
        finally:
            self.names.pop()

    def statements(self, body: Sequence[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.For):
            self._for(node)
        elif isinstance(node, ast.With):
            self._with(node)
        elif isinstance(node, ast.If):
            self._if(node)
        elif isinstance(node, ast.Assign):
            self._assign(node)
        elif isinstance(node, ast.AugAssign):
            self._aug_assign(node)
        elif isinstance(node, ast.AnnAssign):
            self._typed_let(node)
        elif isinstance(node, ast.Expr):
            self._expression_statement(node)
        elif not isinstance(node, ast.Pass):
            raise TVMScriptError(node, f"this statement is outside the TIR subset; {OUTSIDE}")

    def written(self, body: Sequence[ast.stmt]) -> list[Buffer]:
        """The buffers defined outside ``body`` that it stores into, in order."""
        found = [self.lookup(name) for name in stored_names(body)]
        return [b for b in found if isinstance(b, Buffer) and b in self.tensors]

    # --- stores and bindings ------------------------------------------------------------

    def store(self, target: ast.Subscript, value: Scalar) -> None:
        """``buffer[indices] = value`` (converted to the buffer's type, as TVM does)."""
        buffer = self.buffer(target.value)
        indices = self.indices(buffer, target)
        element = self.cast(value, buffer.dtype)
        insert = tensor.InsertOp(element.value, self.tensors[buffer], indices)
        self.tensors[buffer] = self.value(insert)

    def _assign(self, node: ast.Assign) -> None:
        target = node.targets[0] if len(node.targets) == 1 else None
        if isinstance(target, ast.Subscript):
            self.store(target, self.expr(node.value))
            return
        if not isinstance(target, ast.Name):
            raise TVMScriptError(node, "expected a store 'buffer[...] = value' or 'name = value'")
        call = node.value if isinstance(node.value, ast.Call) else None
        function = self.tir_function(call.func) if call is not None else None
        if call is not None and function == "alloc_buffer":
            self._alloc_buffer(target.id, call)
        elif call is not None and function == "match_buffer":
            raise TVMScriptError(node, "T.match_buffer must come before the function's statements")
        else:
            self.define(target.id, self.expr(node.value))

    def _typed_let(self, node: ast.AnnAssign) -> None:
        """``x: T.int32 = value``, as TVM prints a ``LetStmt``."""
        kind = self.tir_function(node.annotation)
        dtype = dtype_named(kind)
        if not isinstance(node.target, ast.Name) or dtype is None or node.value is None:
            raise TVMScriptError(node, "expected 'name: T.<dtype> = value'")
        self.define(node.target.id, self.cast(self.expr(node.value), dtype))

    def _aug_assign(self, node: ast.AugAssign) -> None:
        target = node.target
        if not isinstance(target, ast.Subscript):
            raise TVMScriptError(node, "only a buffer element can be updated in place")
        operator = ast.BinOp(left=target, op=node.op, right=node.value)
        self.store(target, self.expr(ast.copy_location(operator, node)))

    def _alloc_buffer(self, name: str, call: ast.Call) -> None:
        """``T.alloc_buffer(shape, dtype)``: a ``tensor.empty`` (its contents are
        undefined until stored, as in TVM)."""
        shape, dtype = self.buffer_declaration(call, call.args, ("scope",))
        sizes = [self.size(node) for node in shape]
        buffer = Buffer(name, dtype, tuple(sizes))
        dynamic = [
            self.index(self.expr(node))
            for node, size in zip(shape, sizes, strict=True)
            if not isinstance(size, int)
        ]
        self.tensors[buffer] = self.value(tensor.EmptyOp(dynamic, buffer.tensor_type))
        self.define(name, buffer)

    def buffer_declaration(
        self, call: ast.Call, args: Sequence[ast.expr], ignored: Sequence[str]
    ) -> tuple[list[ast.expr], DataType]:
        """The shape and data type of ``T.Buffer(shape, dtype)``,
        ``T.match_buffer(handle, shape, dtype)`` (``args`` without the handle) or
        ``T.alloc_buffer(shape, dtype)``; ``float32`` by default, as in TVM. Other
        keywords than ``ignored`` ones (strides, offsets) are outside the subset."""
        keywords = {keyword.arg: keyword.value for keyword in call.keywords}
        values = [*args, *(keywords.pop(key) for key in ("shape", "dtype") if key in keywords)]
        for key in ignored:
            keywords.pop(key, None)
        if keywords or not 1 <= len(values) <= 2:
            what = f"'{next(iter(keywords))}'" if keywords else "these arguments"
            raise TVMScriptError(call, f"a buffer with {what} is outside the TIR subset; {OUTSIDE}")
        shape = values[0]
        sizes = list(shape.elts) if isinstance(shape, ast.Tuple | ast.List) else [shape]
        dtype = self.dtype_of(values[1]) if len(values) == 2 else FLOAT32
        return sizes, dtype

    def size(self, node: ast.expr) -> Size:
        """A size as written: ``4`` or ``T.int64(4)``, a symbolic size ``n``."""
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            arg = node.args[0]
            typed = (self.tir_function(node.func) or "").startswith(("int", "uint"))
            if typed and isinstance(arg, ast.Constant) and type(arg.value) is int:
                return arg.value
        return None

    def _expression_statement(self, node: ast.Expr) -> None:
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return  # a docstring
        function = self.tir_function(value.func) if isinstance(value, ast.Call) else None
        if function == "evaluate" and isinstance(value, ast.Call) and len(value.args) == 1:
            if not isinstance(value.args[0], ast.Constant):
                self.expr(value.args[0])
            return
        if function == "func_attr":
            return
        if function in (*IGNORED_IN_BLOCKS, "where"):
            raise TVMScriptError(node, f"T.{function} belongs in a T.sblock")
        raise TVMScriptError(node, f"this statement is outside the TIR subset; {OUTSIDE}")

    # --- control flow -------------------------------------------------------------------

    def branch(
        self,
        condition: Scalar,
        then: Callable[[], None],
        otherwise: Callable[[], None] | None,
        written: Sequence[Buffer],
    ) -> None:
        """An ``scf.if`` running ``then`` or ``otherwise``, yielding the ``written``
        buffers."""
        outer = self.tensors
        blocks = []
        for body in (then, otherwise):
            self.tensors = dict(outer)
            with self.into(Block()) as block, self.scope():
                if body is not None:
                    body()
                self.emit(scf.YieldOp(*[self.tensors[buffer] for buffer in written]))
            blocks.append(block)
        types = [outer[buffer].type for buffer in written]
        op = self.emit(scf.IfOp(condition.value, types, [blocks[0]], [blocks[1]]))
        self.tensors = dict(outer)
        self.tensors.update(zip(written, op.results, strict=True))

    def _if(self, node: ast.If) -> None:
        condition = self.condition(node.test)
        otherwise = (lambda: self.statements(node.orelse)) if node.orelse else None
        written = self.written([*node.body, *node.orelse])
        self.branch(condition, lambda: self.statements(node.body), otherwise, written)

    def _for(self, node: ast.For) -> None:
        if node.orelse:
            raise TVMScriptError(node, "a for loop cannot have an else branch")
        written = self.written(node.body)

        def nest(loops: list[tuple[str, Scalar, Scalar, Scalar]]) -> None:
            if not loops:
                self.statements(node.body)
                return
            (name, start, stop, step), inner = loops[0], loops[1:]
            self.loop(name, (start, stop, step), written, lambda: nest(inner))

        nest(self._loops(node))

    def loop(
        self,
        name: str,
        bounds: tuple[Scalar, Scalar, Scalar],
        written: Sequence[Buffer],
        body: Callable[[], None],
    ) -> None:
        """An ``scf.for`` of variable ``name`` over ``range(*bounds)`` carrying the
        ``written`` buffers."""
        start, stop, step = bounds
        dtype = common_type(common_type(start.dtype, stop.dtype), step.dtype)
        lower, upper, stride = (self.index(self.cast(bound, dtype)) for bound in bounds)
        outer = self.tensors
        self.tensors = dict(outer)
        block = Block(arg_types=[IndexType(), *(outer[buffer].type for buffer in written)])
        with self.into(block), self.scope():
            self.tensors.update(zip(written, block.args[1:], strict=True))
            self.define(name, self.from_index(block.args[0], dtype))
            body()
            self.emit(scf.YieldOp(*[self.tensors[buffer] for buffer in written]))
        initial = [outer[buffer] for buffer in written]
        op = self.emit(scf.ForOp(lower, upper, stride, initial, Region(block)))
        self.tensors = dict(outer)
        self.tensors.update(zip(written, op.results, strict=True))

    def _loops(self, node: ast.For) -> list[tuple[str, Scalar, Scalar, Scalar]]:
        """The loops a ``for`` header makes: variable, start, stop and step."""
        targets = node.target.elts if isinstance(node.target, ast.Tuple) else [node.target]
        if not all(isinstance(target, ast.Name) for target in targets):
            raise TVMScriptError(node.target, "loop variables must be names")
        names = [target.id for target in targets]  # pyright: ignore[reportAttributeAccessIssue]
        call = node.iter if isinstance(node.iter, ast.Call) else None
        kind = dotted_name(call.func) if call is not None else None
        function = self.tir_function(call.func) if call is not None else None
        if call is None or not (kind == "range" or function in (*LOOPS, "grid")):
            problem = f"'{ast.unparse(node.iter)}' is outside the TIR subset"
            if function == "thread_binding":
                problem = "GPU thread bindings are outside the TIR subset"
            raise TVMScriptError(node.iter, f"{problem}; {OUTSIDE}")
        if function == "grid":
            if len(call.args) != len(names):
                raise TVMScriptError(
                    node, f"T.grid has {len(call.args)} extents for {len(names)} variables"
                )
            ranges = [arg.elts if isinstance(arg, ast.Tuple) else [arg] for arg in call.args]
            return [
                (name, *self._range(part, node)) for name, part in zip(names, ranges, strict=True)
            ]
        if len(names) != 1:
            raise TVMScriptError(node.target, "this loop has one variable")
        keywords = {k.arg: k.value for k in call.keywords}
        args = [*call.args, *([keywords.pop("step")] if "step" in keywords else [])]
        if "stop" in keywords:
            args.insert(1, keywords.pop("stop"))
        keywords.pop("annotations", None)
        if keywords:
            raise TVMScriptError(call, f"unexpected loop argument '{next(iter(keywords))}'")
        return [(names[0], *self._range(args, node))]

    def _range(self, args: Sequence[ast.expr], node: ast.AST) -> tuple[Scalar, Scalar, Scalar]:
        """``range(stop)``, ``range(start, stop)``, ``range(start, stop, step)``."""
        if not 1 <= len(args) <= 3:
            raise TVMScriptError(node, "a loop takes stop, or start, stop and step")
        values = [self.expr(arg) for arg in args]
        if len(values) == 1:
            values.insert(0, self.constant(0, values[0].dtype))
        if len(values) == 2:
            values.append(self.constant(1, values[0].dtype))
        for value, arg in zip(values, args, strict=False):
            if not value.dtype.is_int:
                raise TVMScriptError(
                    arg, f"loop bounds must be integers, not {value.dtype.tvm_name()}"
                )
        start, stop, step = values
        return start, stop, step

    # --- blocks -------------------------------------------------------------------------

    def _with(self, node: ast.With) -> None:
        item = node.items[0] if len(node.items) == 1 else None
        call = item.context_expr if item is not None else None
        function = self.tir_function(call.func) if isinstance(call, ast.Call) else None
        if function in ("sblock", "block"):
            with self.scope():
                self._block(node)
        elif function == "init":
            raise TVMScriptError(node, "T.init() belongs in a T.sblock")
        else:
            shown = ast.unparse(call) if call is not None else "this with statement"
            raise TVMScriptError(node, f"'with {shown}' is outside the TIR subset; {OUTSIDE}")

    def _block(self, node: ast.With) -> None:
        """A block: its axes, then (under its ``T.where``) its init and body."""
        reductions: list[tuple[Scalar, Scalar]] = []
        predicate: ast.expr | None = None
        init: list[ast.stmt] = []
        body: list[ast.stmt] = []
        for statement in node.body:
            call = statement.value if isinstance(statement, ast.Expr | ast.Assign) else None
            name = dotted_name(call.func) if isinstance(call, ast.Call) else None
            function = self.tir_function(call.func) if isinstance(call, ast.Call) else None
            if (
                isinstance(statement, ast.Assign)
                and name is not None
                and name.startswith(f"{self.tir}.axis.")
            ):
                reductions += self._axes(statement, name.rpartition(".")[2])
            elif isinstance(statement, ast.Expr) and function in IGNORED_IN_BLOCKS:
                continue
            elif isinstance(statement, ast.Expr) and function == "where":
                assert isinstance(call, ast.Call)
                predicate = call.args[0]
            elif isinstance(statement, ast.With) and self._is_init(statement):
                init = statement.body
            else:
                body.append(statement)

        def run() -> None:
            if init:
                self._init(reductions, init)
            self.statements(body)

        if predicate is None:
            run()
        else:
            self.branch(self.condition(predicate), run, None, self.written([*init, *body]))

    def _is_init(self, node: ast.With) -> bool:
        calls = [item.context_expr for item in node.items]
        return (
            len(calls) == 1
            and isinstance(calls[0], ast.Call)
            and self.tir_function(calls[0].func) == "init"
        )

    def _init(self, reductions: Sequence[tuple[Scalar, Scalar]], init: list[ast.stmt]) -> None:
        """The ``T.init()`` statements, when every reduction axis is at its start."""
        condition = self.constant(True, BOOL)
        for axis, start in reductions:
            condition = self.binary("&", condition, self.compare("==", axis, start))
        self.branch(condition, lambda: self.statements(init), None, self.written(init))

    def _axes(self, node: ast.Assign, kind: str) -> list[tuple[Scalar, Scalar]]:
        """Block axes ``v = T.axis.spatial(dom, value)`` or ``T.axis.remap("SR",
        [i, j])``, bound to their values; the reduction axes with their domain's
        start."""
        call = node.value
        assert isinstance(call, ast.Call)
        target = node.targets[0] if len(node.targets) == 1 else None
        names = target.elts if isinstance(target, ast.Tuple) else [target]
        if not all(isinstance(name, ast.Name) for name in names):
            raise TVMScriptError(node, "block axes must be assigned to names")
        if kind == "remap":
            kinds = (
                call.args[0].value if call.args and isinstance(call.args[0], ast.Constant) else None
            )
            values = (
                call.args[1].elts
                if len(call.args) == 2 and isinstance(call.args[1], ast.List | ast.Tuple)
                else None
            )
            if (
                not isinstance(kinds, str)
                or values is None
                or not len(kinds) == len(values) == len(names)
            ):
                raise TVMScriptError(
                    call, 'expected T.axis.remap("SR...", [values]) with one kind per axis'
                )
            axes = [(k, None, value) for k, value in zip(kinds, values, strict=True)]
        elif kind in AXES and len(call.args) == 2 and len(names) == 1:
            axes = [("R" if kind in ("reduce", "R") else "S", call.args[0], call.args[1])]
        else:
            raise TVMScriptError(call, f"T.axis.{kind} is outside the TIR subset; {OUTSIDE}")
        reductions = []
        for name, (axis_kind, domain, value_node) in zip(names, axes, strict=True):
            value = self.expr(value_node)
            assert isinstance(name, ast.Name)
            self.define(name.id, value)
            if axis_kind not in "SR":
                raise TVMScriptError(call, f"axis kind '{axis_kind}' is outside the TIR subset")
            if axis_kind == "R":
                start = self._domain_start(domain, value)
                reductions.append((value, start))
        return reductions

    def _domain_start(self, domain: ast.expr | None, value: Scalar) -> Scalar:
        """Where an axis domain starts: 0 for an extent, ``a`` for ``(a, b)``."""
        if isinstance(domain, ast.Tuple | ast.List) and len(domain.elts) == 2:
            return self.expr(domain.elts[0])
        return self.constant(0, value.dtype if value.dtype.is_int else INT32)
