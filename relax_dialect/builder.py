"""Build Relax modules in Python, binding by binding (TVM's ``BlockBuilder``).

Every binding's StructInfo is inferred as it is emitted, so a malformed call
fails at once (``VerifyException``) at the line that emits it::

    bb = Builder()
    with bb.function("main", {"x": TensorType(["n", 4], "f32")}) as main:
        (x,) = main.params
        with bb.dataflow():
            y = bb.emit(call("relax.add", x, call("relax.multiply", x, x)))
            out = bb.emit_output(y)
        bb.emit_func_output(out)
    module = bb.module

``emit`` normalises nested expressions into bindings, left to right, as the
spec's normal form prescribes: a nested ``call`` becomes a binding of its
own, a Python sequence a ``relax.tuple``, a number or symbolic expression a
``relax.prim_value``, a ``Shape`` a ``relax.shape``, a string a ``relax.str``,
a ``DataType`` a ``relax.dtype`` and a NumPy array a ``relax.constant``. A
value passed to ``emit_output`` may be used after its dataflow block: the
builder substitutes the block's result for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from .analysis.call_graph import function_named
from .attributes import DenseAttr, PrimExprAttr, ShapeAttr
from .dtype import DataType
from .ops import operator_class
from .ops.alias import AliasOp
from .ops.base import BindingOp, check_annotation, verify_definition
from .ops.calls import CallOp, InvokeOp
from .ops.control_flow import IfOp, YieldOp, join_branches
from .ops.dataflow import DataflowOp, OutputOp
from .ops.functions import FunctionOp, LambdaOp, ReturnOp
from .ops.match_cast import MatchCastOp
from .ops.operator import AttrValue, OperatorOp
from .ops.values import (
    ConstantOp,
    DataTypeImmOp,
    PrimValueOp,
    ShapeOp,
    StringImmOp,
    TupleGetItemOp,
    TupleOp,
)
from .prim_expr import PrimExpr, as_expr
from .types import FuncType, ObjectType, StructInfoType


class AnnotationError(VerifyException):
    """A declared StructInfo that contradicts the inferred one."""


@dataclass(frozen=True)
class Call:
    """An operator call whose arguments may be nested expressions."""

    op: str | type[OperatorOp]
    args: tuple[Expr, ...]
    attrs: Mapping[str, AttrValue | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Shape:
    """A shape value (``relax.shape``) as an expression."""

    dims: tuple[PrimExpr | int | str, ...]


Expr = (
    SSAValue
    | Call
    | Shape
    | Sequence["Expr"]
    | int
    | float
    | bool
    | PrimExpr
    | str
    | DataType
    | np.ndarray
)
"""What ``Builder.emit`` accepts and normalises into bindings."""


def call(op: str | type[OperatorOp], *args: Expr, **attrs: AttrValue | None) -> Call:
    """The call ``op(*args)`` with attributes as Python values (``None``: unset)."""
    return Call(op, args, attrs)


OpT = TypeVar("OpT", bound=Operation)


@dataclass
class FunctionFrame:
    """A function being built: its parameters, then (for a closure) its value."""

    params: list[SSAValue]
    dataflow_depth: int
    """How many dataflow blocks enclose the function."""
    value: SSAValue | None = None


class Builder:
    """Builds a module: functions, dataflow blocks and bindings, inferring the
    StructInfo of each binding as it is emitted."""

    def __init__(self, module: ModuleOp | None = None):
        self.module = module if module is not None else ModuleOp([])
        self.location: FileLineColLoc | None = None
        """The source location given to the operations built from now on."""
        self._blocks: list[Block] = []
        self._outputs: list[list[tuple[SSAValue, str | None]]] = []
        self._frames: list[FunctionFrame] = []
        self._exported: dict[SSAValue, SSAValue] = {}

    # --- functions -------------------------------------------------------------------

    def declare_function(
        self,
        name: str,
        params: Mapping[str, StructInfoType],
        ret: StructInfoType | None = None,
        *,
        private: bool = False,
        pure: bool = True,
        attributes: Mapping[str, Attribute] | None = None,
    ) -> FunctionOp:
        """Add ``@name`` with an empty body, so that calls can refer to it before
        ``function`` builds it (forward references, recursion)."""
        block = Block(arg_types=list(params.values()))
        for arg, param_name in zip(block.args, params, strict=True):
            arg.name_hint = param_name
        function = FunctionOp(
            name,
            Region(block),
            ret,
            public=not private,
            pure=pure,
            attributes=dict(attributes or {}),
        )
        self._locate(function)
        self.module.body.block.add_op(function)
        return function

    def function_named(self, name: str) -> FunctionOp | None:
        """The module's ``relax.function @name``, if any."""
        return function_named(self.module, name)

    @contextmanager
    def function(
        self,
        name: str,
        params: Mapping[str, StructInfoType],
        ret: StructInfoType | None = None,
        *,
        private: bool = False,
        pure: bool = True,
        attributes: Mapping[str, Attribute] | None = None,
    ) -> Iterator[FunctionFrame]:
        """Build the body of the global function ``@name`` (declared now unless
        ``declare_function`` did it); end it with ``emit_func_output``."""
        function = self.function_named(name)
        if function is None or function.body.block.ops:
            function = self.declare_function(
                name, params, ret, private=private, pure=pure, attributes=attributes
            )
        frame = FunctionFrame(list(function.params), len(self._outputs))
        with self._frame(frame, function.body.block):
            yield frame

    @contextmanager
    def closure(
        self,
        params: Mapping[str, StructInfoType],
        ret: StructInfoType | None = None,
        *,
        pure: bool = True,
        name: str | None = None,
        recursive: bool = False,
    ) -> Iterator[FunctionFrame]:
        """Build a local function (``relax.lambda``); its value is ``frame.value``
        after the ``with``. A ``recursive`` one (which needs ``ret``) refers to
        itself through ``frame.params[0]``."""
        if recursive and ret is None:
            raise VerifyException("a recursive function needs a return annotation")
        types = list(params.values())
        names = list(params)
        if recursive:
            types.insert(0, FuncType(types, ret, pure))  # pyright: ignore[reportArgumentType]
            names.insert(0, name or "self")
        block = Block(arg_types=types)
        for arg, param_name in zip(block.args, names, strict=True):
            arg.name_hint = param_name
        frame = FunctionFrame(list(block.args), len(self._outputs))
        placeholder = LambdaOp(Region(block), ret, pure=pure)
        with self._placeholder(placeholder) as (region,), self._frame(frame, block):
            yield frame
        closure = LambdaOp(region, ret, pure=pure, recursive=recursive)
        frame.value = self._add(closure, name)

    @contextmanager
    def _frame(self, frame: FunctionFrame, block: Block) -> Iterator[None]:
        self._frames.append(frame)
        self._blocks.append(block)
        try:
            yield
        finally:
            self._blocks.pop()
            self._frames.pop()

    def emit_func_output(self, value: Expr) -> None:
        """End the current function, returning ``value``."""
        if len(self._outputs) > self._frames[-1].dataflow_depth:
            raise VerifyException("a function cannot return from inside a dataflow block")
        self._add(ReturnOp(self.normalize(value)))

    # --- dataflow blocks -------------------------------------------------------------

    @contextmanager
    def dataflow(self) -> Iterator[list[SSAValue]]:
        """A dataflow block; values passed to ``emit_output`` leave it. The list it
        yields holds, after the block, the block's results: one per output."""
        block = Block()
        results: list[SSAValue] = []
        with self._placeholder(DataflowOp(Region(block))) as (region,):
            self._blocks.append(block)
            self._outputs.append([])
            try:
                yield results
            finally:
                self._blocks.pop()
                outputs = self._outputs.pop()
        block.add_op(self._locate(OutputOp([value for value, _ in outputs])))
        dataflow = self._locate(DataflowOp(region))
        self.block.add_op(dataflow)
        for (inner, name), outer in zip(outputs, dataflow.results, strict=True):
            outer.name_hint = name or inner.name_hint
            if inner.owner.parent is block:  # a value of outside stays itself
                self._exported[inner] = outer
        results.extend(dataflow.results)

    def emit_output(self, value: Expr, name: str | None = None) -> SSAValue:
        """Bind ``value`` and make it an output of the current dataflow block
        (named ``name`` after the block)."""
        if not self._outputs:
            raise VerifyException("emit_output outside a dataflow block")
        bound = self.normalize(value, name)
        self._outputs[-1].append((bound, name))
        return bound

    # --- bindings --------------------------------------------------------------------

    @property
    def block(self) -> Block:
        """The block bindings are added to."""
        if not self._blocks:
            raise VerifyException("bindings must be emitted inside a function")
        return self._blocks[-1]

    def emit(
        self, value: Expr, name: str | None = None, annotation: StructInfoType | None = None
    ) -> SSAValue:
        """Bind ``value`` (normalised into bindings) and return the bound value;
        ``annotation`` declares its StructInfo, which must not contradict the
        inferred one (an already bound value is re-bound by a ``match_cast``)."""
        return self.normalize(value, name, annotation)

    def normalize(
        self, value: Expr, name: str | None = None, annotation: StructInfoType | None = None
    ) -> SSAValue:
        """The value of an expression, emitting bindings for what is not bound yet;
        ``name`` and ``annotation`` apply to the outermost binding."""
        if isinstance(value, SSAValue):
            bound = self._exported.get(value, value)
            if annotation is None or annotation == bound.type:
                return bound
            check_annotation("binding", annotation, bound.type)  # pyright: ignore[reportArgumentType]
            return self._add(MatchCastOp(bound, annotation), name)
        if isinstance(value, Call):
            operands = [self.normalize(arg) for arg in value.args]
            return self.emit_operator(value.op, operands, name, annotation, **value.attrs)
        if isinstance(value, Shape):
            attr = ShapeAttr.from_dims(value.dims)
            return self._bind(lambda t: ShapeOp(attr, t), name, annotation)
        if isinstance(value, np.ndarray):
            dense = DenseAttr.from_array(value)
            return self._bind(lambda t: ConstantOp(dense, t), name, annotation)
        if isinstance(value, bool | int | float | PrimExpr):
            attr = PrimExprAttr(as_expr(value))
            return self._bind(lambda t: PrimValueOp(attr, t), name, annotation)
        if isinstance(value, str):
            return self._bind(lambda t: StringImmOp(value, t), name, annotation)
        if isinstance(value, DataType):
            return self._bind(lambda t: DataTypeImmOp(value, t), name, annotation)
        fields = [self.normalize(field) for field in value]
        return self._bind(lambda t: TupleOp(fields, t), name, annotation)

    def alias(self, value: SSAValue, name: str | None = None) -> SSAValue:
        """Bind the bound ``value`` to a second name (``y = x``): a ``relax.alias``
        of the value's StructInfo."""
        return self._add(AliasOp(self._exported.get(value, value)), name)

    def emit_operator(
        self,
        op: str | type[OperatorOp],
        operands: Sequence[SSAValue],
        name: str | None = None,
        annotation: StructInfoType | None = None,
        **attrs: AttrValue | None,
    ) -> SSAValue:
        """Bind the operator ``op`` (a class or its name) on bound operands."""
        cls = operator_class(op) if isinstance(op, str) else op
        if cls is None:
            raise VerifyException(f"unknown operator '{op}'")
        operands = [self._exported.get(v, v) for v in operands]
        return self._bind(lambda t: cls.build(operands, t, **attrs), name, annotation)

    def tuple_get_item(self, value: Expr, index: int, name: str | None = None) -> SSAValue:
        bound = self.normalize(value)
        return self._bind(lambda t: TupleGetItemOp(bound, index, t), name)

    def match_cast(self, value: Expr, target: StructInfoType, name: str | None = None) -> SSAValue:
        """Bind ``value`` with the StructInfo ``target``, checked at run time."""
        bound = self.normalize(value)
        return self._add(MatchCastOp(bound, target), name)

    def call_function(self, callee: str, args: Sequence[Expr], name: str | None = None) -> SSAValue:
        """Call the module's function ``@callee``."""
        operands = [self.normalize(arg) for arg in args]
        return self._bind(lambda t: CallOp(callee, operands, t), name)

    def invoke(self, callee: Expr, args: Sequence[Expr], name: str | None = None) -> SSAValue:
        """Call a function value (a closure, a packed function, an operator reference)."""
        function = self.normalize(callee)
        operands = [self.normalize(arg) for arg in args]
        return self._bind(lambda t: InvokeOp(function, operands, t), name)

    def emit_if(
        self,
        cond: Expr,
        then_body: Callable[[], Expr],
        else_body: Callable[[], Expr],
        name: str | None = None,
    ) -> SSAValue:
        """``if cond`` with branches built by the callables, which return the
        branch values; the result's StructInfo is their join."""
        condition = self.normalize(cond)
        blocks = (Block(), Block())
        placeholder = IfOp(condition, Region(blocks[0]), Region(blocks[1]), ObjectType())
        with self._placeholder(placeholder) as regions:
            for block, body in zip(blocks, (then_body, else_body), strict=True):
                self._blocks.append(block)
                try:
                    value = self.normalize(body())
                finally:
                    self._blocks.pop()
                block.add_op(self._locate(YieldOp(value)))
        types = [block.last_op.value.type for block in blocks]  # pyright: ignore
        joined = join_branches(*regions, *types)  # pyright: ignore[reportArgumentType]
        return self._add(IfOp(condition, *regions, joined), name)

    def add_binding(
        self,
        make: Callable[[StructInfoType], BindingOp],
        name: str | None = None,
        annotation: StructInfoType | None = None,
    ) -> SSAValue:
        """Bind an operation built by ``make(result_type)`` (for operations without a
        helper here, e.g. ``relax.call_tir``)."""
        return self._bind(make, name, annotation)

    # --- internals -------------------------------------------------------------------

    @contextmanager
    def _placeholder(self, op: Operation) -> Iterator[list[Region]]:
        """Keep ``op`` where the finished operation will go while its regions are
        built, so that what they contain sees the module; then hand the regions
        over (the caller builds the real operation around them)."""
        self.block.add_op(op)
        try:
            yield list(op.regions)
        finally:
            for region in list(op.regions):
                op.detach_region(region)
            op.detach()
            op.erase()

    def _bind(
        self,
        make: Callable[[StructInfoType], BindingOp],
        name: str | None,
        annotation: StructInfoType | None = None,
    ) -> SSAValue:
        """Add ``make(annotation or the inferred type)``. Inference runs on the
        operation in place (so that it sees the module: calls look up their
        callee), built first with the annotation or ``object``, then given the
        inferred type. Operations whose result type is declared rather than
        inferred (``call_packed``, ``call_tir``) take it as ``annotation``."""
        op = make(annotation if annotation is not None else ObjectType())
        self.block.add_op(op)
        try:
            verify_definition(op)
            inferred = op.infer_type()
            if annotation is not None:
                try:
                    check_annotation(op.name, annotation, inferred)
                except VerifyException as error:
                    raise AnnotationError(str(error)) from None
        except Exception:
            op.detach()
            op.erase()
            raise
        result = op.results[0]
        if annotation is None and result.type != inferred:
            result = Rewriter.replace_value_with_new_type(result, inferred)
        self._locate(op)
        if name is not None:
            result.name_hint = name
        return result

    def _add(self, op: Operation, name: str | None = None) -> SSAValue:
        self.block.add_op(self._locate(op))
        if not op.results:
            return None  # pyright: ignore[reportReturnType]
        result = op.results[0]
        if name is not None:
            result.name_hint = name
        return result

    def _locate(self, op: OpT) -> OpT:
        if self.location is not None:
            op.location = self.location
        return op
