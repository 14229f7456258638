"""A ``T.prim_func`` as the destination-passing ``func.func`` ``relax.call_tir``
calls.

TVM passes a TIR function the call's arguments, then its fresh outputs, then
the ``tir_vars``; the ``func.func`` takes the arguments, the ``tir_vars``, then
every output (an in-place output again as its argument) and returns the
outputs' final contents. Buffers become tensors (a size that is not a constant
is dynamic), scalar parameters scalars of their type; a symbolic size is bound
to the first buffer dimension it names (``tensor.dim``), unless a scalar
parameter of that name gives it. The kernel is cleaned of the duplicates and
dead values reading leaves (``cse``, ``region_dce``).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, Block, Region
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce

from ....dtype import DataType
from ..annotations import TVMScriptError
from .buffers import Buffer
from .convention import Convention
from .expressions import dtype_named
from .scalars import Scalar, mlir_type
from .statements import StatementReader, stored_names
from .structured import StructuredReader


@dataclass(frozen=True)
class Parameter:
    """A parameter of a TIR function: a buffer (with its sizes as written), or a
    scalar of ``dtype``."""

    name: str
    dtype: DataType
    buffer: Buffer | None = None
    sizes: tuple[ast.expr, ...] = ()

    @property
    def type(self) -> Attribute:
        return self.buffer.tensor_type if self.buffer is not None else mlir_type(self.dtype)


class PrimFunc:
    """A ``T.prim_func`` read from the source: its parameters, symbolic sizes and
    statements, translated into a ``func.func`` for a calling convention."""

    def __init__(self, node: ast.FunctionDef, tir: str):
        self.node = node
        self.name = node.name
        self.tir = tir
        self.reader = StatementReader(Block(), tir)
        self.sizes: dict[str, DataType] = {}
        """The symbolic sizes declared (``n = T.int64()``), with their types."""
        self.parameters = self._parameters()
        self.body = self._header(node.body)

    # --- reading ------------------------------------------------------------------------

    def _parameters(self) -> list[Parameter | str]:
        """The parameters: a ``T.handle`` stays its name until ``T.match_buffer``."""
        arguments = self.node.args
        if arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.defaults:
            raise TVMScriptError(self.node, "a T.prim_func takes plain annotated parameters")
        parameters: list[Parameter | str] = []
        for arg in arguments.args:
            annotation = arg.annotation
            call = annotation if isinstance(annotation, ast.Call) else None
            kind = self.reader.tir_function(call.func if call is not None else annotation)  # pyright: ignore
            dtype = dtype_named(kind)
            if kind == "handle" and call is None:
                parameters.append(arg.arg)
            elif kind == "Buffer" and call is not None:
                parameters.append(self._buffer(arg.arg, call, call.args, ()))
            elif dtype is not None and call is None:
                parameters.append(Parameter(arg.arg, dtype))
            else:
                raise TVMScriptError(
                    arg, "expected a T.handle, T.Buffer(shape, dtype) or T.<dtype> parameter"
                )
        return parameters

    def _buffer(
        self, name: str, call: ast.Call, args: Sequence[ast.expr], ignored: Sequence[str]
    ) -> Parameter:
        sizes, dtype = self.reader.buffer_declaration(call, args, ignored)
        buffer = Buffer(name, dtype, tuple(self.reader.size(size) for size in sizes))
        return Parameter(name, dtype, buffer, tuple(sizes))

    def _header(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Reads the declarations that open the body (``T.func_attr``, symbolic
        sizes, ``T.match_buffer``); returns the statements after them."""
        for position, statement in enumerate(body):
            if not self._declaration(statement):
                rest = body[position:]
                break
        else:
            rest = []
        for parameter in self.parameters:
            if isinstance(parameter, str):
                raise TVMScriptError(
                    self.node, f"parameter '{parameter}' is a T.handle without T.match_buffer"
                )
        return rest

    def _declaration(self, node: ast.stmt) -> bool:
        value = node.value if isinstance(node, ast.Expr | ast.Assign) else None
        function = self.reader.tir_function(value.func) if isinstance(value, ast.Call) else None
        if isinstance(node, ast.Expr):
            is_docstring = isinstance(value, ast.Constant) and isinstance(value.value, str)
            return is_docstring or function == "func_attr"
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            return False
        target = node.targets[0]
        if function == "match_buffer" and isinstance(target, ast.Name):
            assert isinstance(value, ast.Call)
            self._match_buffer(target.id, value)
            return True
        names = target.elts if isinstance(target, ast.Tuple) else [target]
        values = value.elts if isinstance(value, ast.Tuple) else [value]
        declared = [self._size_type(v) for v in values]
        if len(names) != len(values) or None in declared:
            return False
        for name, dtype in zip(names, declared, strict=True):
            if not isinstance(name, ast.Name):
                return False
            assert dtype is not None
            self.sizes[name.id] = dtype
        return True

    def _size_type(self, node: ast.expr | None) -> DataType | None:
        """The type of a symbolic size declaration ``T.int64()``, else None."""
        if not isinstance(node, ast.Call) or node.args or node.keywords:
            return None
        kind = self.reader.tir_function(node.func)
        dtype = dtype_named(kind)
        return dtype if dtype is not None and dtype.is_int else None

    def _match_buffer(self, name: str, call: ast.Call) -> None:
        handle = call.args[0] if call.args else None
        position = next(
            (
                i
                for i, p in enumerate(self.parameters)
                if isinstance(handle, ast.Name) and p == handle.id
            ),
            None,
        )
        if position is None:
            raise TVMScriptError(call, "T.match_buffer takes a T.handle parameter first")
        ignored = ("align", "offset_factor", "scope")
        self.parameters[position] = self._buffer(name, call, call.args[1:], ignored)

    # --- translating --------------------------------------------------------------------

    def default_convention(self) -> Convention:
        """The convention of a function no call uses: its trailing scalars are
        ``tir_vars``, the buffers it stores into just before them its outputs."""
        parameters = self._resolved()
        written = set(stored_names(self.body))
        end = len(parameters)
        while end and parameters[end - 1].buffer is None:
            end -= 1
        start = end
        while start and parameters[start - 1].name in written:
            start -= 1
        return Convention(start, (-1,) * (end - start))

    def _resolved(self) -> list[Parameter]:
        return [p for p in self.parameters if isinstance(p, Parameter)]

    def order(self, convention: Convention) -> list[int]:
        """The parameter at each position of the ``func.func`` (raises
        ``ValueError`` when the convention does not fit the parameters)."""
        parameters = self._resolved()
        fresh = iter(range(convention.inputs, len(parameters)))
        outputs = [next(fresh, -1) if index == -1 else index for index in convention.outputs]
        tir_vars = list(fresh)
        if -1 in outputs:
            raise ValueError(
                f"T.prim_func '{self.name}' has {len(parameters)} parameters, fewer than the "
                f"call's {convention}"
            )
        for position in outputs:
            if parameters[position].buffer is None:
                raise ValueError(f"parameter '{parameters[position].name}' is not a buffer")
        for position in tir_vars:
            if parameters[position].buffer is not None:
                name = parameters[position].name
                raise ValueError(
                    f"buffer '{name}' is passed where the call passes a tir_vars value"
                )
        return [*range(convention.inputs), *tir_vars, *outputs]

    def kernel(self, convention: Convention) -> func.FuncOp:
        """The ``func.func`` for calls of ``convention`` (raises ``ValueError``
        when it does not fit the parameters)."""
        parameters = self._resolved()
        order = self.order(convention)
        types = [parameters[position].type for position in order]
        block = Block(arg_types=types)
        reader = StructuredReader(block, self.tir)
        for arg, position in zip(block.args, order, strict=True):
            parameter = parameters[position]
            arg.name_hint = parameter.name
            if parameter.buffer is None:
                reader.define(parameter.name, Scalar(arg, parameter.dtype))
            elif parameter.buffer not in reader.tensors:
                reader.tensors[parameter.buffer] = arg
                reader.define(parameter.name, parameter.buffer)
        self._bind_sizes(reader, parameters)
        reader.statements(self.body)
        outputs = [
            parameters[position].buffer
            for position in order[len(order) - len(convention.outputs) :]
        ]
        results = [reader.tensors[buffer] for buffer in outputs if buffer is not None]
        block.add_op(func.ReturnOp(*results))
        signature = (types, [result.type for result in results])
        kernel = func.FuncOp(self.name, signature, Region(block))
        cse(kernel)
        region_dce(kernel.body)
        return kernel

    def _bind_sizes(self, reader: StatementReader, parameters: Sequence[Parameter]) -> None:
        """Defines each symbolic size as the first buffer dimension naming it."""
        for parameter in parameters:
            if parameter.buffer is None:
                continue
            for axis, size in enumerate(parameter.sizes):
                name = size.id if isinstance(size, ast.Name) else None
                if name is None or name not in self.sizes or reader.lookup(name) is not None:
                    continue
                index = reader.value(arith.ConstantOp(IntegerAttr(axis, IndexType())))
                dimension = tensor.DimOp(reader.tensors[parameter.buffer], index)
                reader.define(name, reader.from_index(reader.value(dimension), self.sizes[name]))
