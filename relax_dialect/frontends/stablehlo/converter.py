"""The conversion of a StableHLO module into Relax: its public functions become
Relax functions, with named symbolic dimensions (``entry_shapes``); calls of
private functions are inlined; each operation becomes Relax bindings by the rule
``@converts`` registered for its class (``convert_*.py``); an operation without
a rule is a located error naming it.

Control flow: ``while`` becomes a private recursive Relax function (its
condition, then ``if`` the body and the recursive call, else the carried
values), ``case`` and ``if`` Relax ``if``s."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from math import prod
from typing import NoReturn

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    SymbolRefAttr,
)
from xdsl.dialects.builtin import TensorType as MLIRTensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ...builder import Builder, Expr, Shape, call
from ...diagnostics import DiagnosticError, at
from ...dtype import DataType
from ...prim_expr import PrimExpr, Var
from ...types import ShapeType, StructInfoType, TensorType, TupleType
from . import ops
from .entry_shapes import entry_dimensions
from .known import Known, evaluate, known_shape

Rule = Callable[["Converter", Operation], Sequence[Expr]]
"""Converts an operation: one Relax value per result."""

RULES: dict[type[Operation], Rule] = {}


def converts(*classes: type[Operation]) -> Callable[[Rule], Rule]:
    """Registers the rule converting the operations of ``classes``."""

    def register(rule: Rule) -> Rule:
        for cls in classes:
            RULES[cls] = rule
        return rule

    return register


def refuse(op: Operation, message: str) -> NoReturn:
    """A located error: ``op`` cannot be converted (``message`` says why)."""
    raise DiagnosticError([at(op, f"{op.name}: {message}")])


def dtype_of(element: Attribute, op: Operation) -> str:
    """The Relax data type of a StableHLO element type."""
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return "bool"
        unsigned = element.signedness.data is Signedness.UNSIGNED
        return f"{'u' if unsigned else 'i'}{width}"
    if isinstance(element, AnyFloat) and str(element) in ("f16", "f32", "f64"):
        return str(element)
    refuse(op, f"element type {element} is not supported")


NUMPY_KINDS = {"f": "float", "i": "int", "u": "uint"}


def numpy_dtype(dtype: str) -> np.dtype:
    """The NumPy data type of a Relax one (``f32``: ``float32``)."""
    return np.dtype("bool" if dtype == "bool" else NUMPY_KINDS[dtype[0]] + dtype[1:])


def tensor_type(value_type: Attribute, op: Operation) -> MLIRTensorType:
    if not isinstance(value_type, MLIRTensorType):
        refuse(op, f"values of type {value_type} are not supported")
    return value_type


def single_block(function: func.FuncOp) -> None:
    if len(function.body.blocks) != 1:
        refuse(function, f"@{function.sym_name.data} needs a body of one block")


class Converter:
    """Builds the Relax module of a StableHLO module."""

    def __init__(self, module: ModuleOp):
        self.functions = {
            f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)
        }
        self.bb = Builder()
        self.values: dict[SSAValue, SSAValue] = {}
        """The Relax value of each StableHLO value converted so far (in scope)."""
        self.known: dict[SSAValue, Known] = {}
        """The StableHLO integer values known without running (shape computations)."""
        self._materialized: list[dict[SSAValue, SSAValue] | None] = [None]
        """Known values made Relax values, per block being built (None: a function
        boundary, which hides the blocks outside)."""
        self._inlining: list[str] = []
        self._loops = 0
        self._lifted = 0
        self.current: Operation = module
        """The operation being converted (where a misplaced value is reported)."""

    def convert(self) -> ModuleOp:
        for function in self.functions.values():
            if function.sym_visibility is None or function.sym_visibility.data == "public":
                self.function(function)
        return self.bb.module

    # -- functions ----------------------------------------------------------------

    def function(self, function: func.FuncOp) -> None:
        single_block(function)
        name = function.sym_name.data
        args = function.body.block.args
        dims = entry_dimensions(function, self.functions)
        params: dict[str, StructInfoType] = {}
        for i, (arg, row) in enumerate(zip(args, dims, strict=True)):
            self.bb.location = self._location(function)
            element = tensor_type(arg.type, function).element_type
            params[arg.name_hint or f"arg{i}"] = TensorType(row, dtype_of(element, function))
        self.bb.location = self._location(function)
        with (
            self.bb.function(name, params) as frame,
            self.scope(dict(zip(args, frame.params, strict=True))),
        ):
            results = self.block(function.body.block)
            self.bb.emit_func_output(results[0] if len(results) == 1 else list(results))

    def call(self, op: func.CallOp) -> list[SSAValue]:
        """The results of a private function, its body inlined."""
        callee = op.callee.string_value() if isinstance(op.callee, SymbolRefAttr) else ""
        return self.inline(op, callee, op.operands)

    def inline(self, op: Operation, callee: str, operands: Sequence[SSAValue]) -> list[SSAValue]:
        function = self.functions.get(callee)
        if function is None:
            refuse(op, f"calls @{callee}, which the module does not define")
        if callee in self._inlining:
            refuse(op, f"calls @{callee} recursively")
        single_block(function)
        args = function.body.block.args
        if len(args) != len(operands):
            refuse(op, f"passes {len(operands)} arguments to @{callee}, which takes {len(args)}")
        bound: dict[SSAValue, SSAValue] = {}
        for arg, operand in zip(args, operands, strict=True):
            if operand in self.known:
                self.known[arg] = self.known[operand]
            else:
                bound[arg] = self.value(operand)
        self._inlining.append(callee)
        try:
            with self.scope(bound, boundary=False):
                return self.block(function.body.block)
        finally:
            self._inlining.pop()

    # -- values and scopes --------------------------------------------------------

    @contextmanager
    def scope(self, values: dict[SSAValue, SSAValue], boundary: bool = True) -> Iterator[None]:
        """Convert with only ``values`` in scope (a function body, an inlined
        call), the known values made Relax values anew behind a ``boundary``."""
        saved = self.values
        self.values = dict(values)
        self._materialized.append(None if boundary else {})
        if boundary:
            self._materialized.append({})
        try:
            yield
        finally:
            self.values = saved
            del self._materialized[-2 if boundary else -1 :]

    @contextmanager
    def branch(self) -> Iterator[None]:
        """A nested block (an ``if`` branch): what it binds stays in it."""
        saved = dict(self.values)
        self._materialized.append({})
        try:
            yield
        finally:
            self._materialized.pop()
            self.values = saved

    def value(self, ssa: SSAValue) -> SSAValue:
        """The Relax value of a StableHLO value."""
        if ssa in self.values:
            return self.values[ssa]
        if ssa in self.known:
            for cache in reversed(self._materialized):
                if cache is None:
                    break
                if ssa in cache:
                    return cache[ssa]
            made = self.materialize(self.known[ssa], ssa)
            cache = self._materialized[-1]
            assert cache is not None
            cache[ssa] = made
            return made
        refuse(self.current, "uses a value outside the region that defines it")

    def materialize(self, known: Known, ssa: SSAValue) -> SSAValue:
        """A known integer tensor as a Relax tensor: a constant, or the symbolic
        dimensions through ``shape_to_tensor``."""
        assert isinstance(ssa.type, MLIRTensorType)
        owner = ssa.owner if isinstance(ssa.owner, Operation) else ssa.owner.parent_op()
        assert owner is not None
        dtype = dtype_of(ssa.type.element_type, owner)
        ints = known.ints()
        if ints is not None:
            return self.bb.emit(np.array(ints, numpy_dtype(dtype)).reshape(known.shape))
        flat = self.bb.emit(call("relax.shape_to_tensor", Shape(tuple(known.values))))
        typed = self.bb.emit(call("relax.astype", flat, dtype=DataType.parse(dtype)))
        return self.bb.emit(call("relax.reshape", typed, Shape(known.shape)))

    def symbolic(self, ssa: SSAValue) -> Known | None:
        """The values of a small integer tensor as symbolic expressions: known, or
        computed from operands whose scalars known only at run time become
        symbolic variables (``lift``); None for other tensors."""
        if ssa in self.known:
            return self.known[ssa]
        shape = known_shape(ssa.type)
        if shape is None:
            return None
        owner = ssa.owner
        if isinstance(owner, Operation) and len(owner.results) == 1 and not owner.regions:
            operands = [self.symbolic(o) for o in owner.operands]
            if all(o is not None for o in operands):
                found = evaluate(owner, operands, self.dimension)
                if found is not None:
                    return found
        return self.lift(ssa, shape) if prod(shape) == 1 else None

    def lift(self, ssa: SSAValue, shape: tuple[int, ...]) -> Known:
        """A run-time integer scalar as a symbolic variable, bound by a
        ``match_cast`` of its value as a shape."""
        flat = self.bb.emit(call("relax.reshape", self.value(ssa), Shape((1,))))
        wide = self.bb.emit(call("relax.astype", flat, dtype=DataType.parse("i64")))
        as_shape = self.bb.emit(call("relax.tensor_to_shape", wide))
        self._lifted += 1
        variable = Var(f"v{self._lifted}")
        self.bb.match_cast(as_shape, ShapeType([variable]))
        return Known(shape, (variable,))

    def dimension(self, op: ops.GetDimensionSizeOp) -> PrimExpr | None:
        """The size a ``get_dimension_size`` reads, from its operand's Relax shape."""
        if op.operands[0] in self.known:
            return None
        dims = self.shape(op.operands[0], op)
        dim = op.properties.get("dimension")
        index = dim.value.data if isinstance(dim, IntegerAttr) else -1
        if not 0 <= index < len(dims):
            refuse(op, f"dimension {index} is out of range for rank {len(dims)}")
        return dims[index]

    def shape(self, ssa: SSAValue, op: Operation) -> tuple[PrimExpr, ...]:
        """The (symbolic) shape of a StableHLO value's Relax tensor."""
        return self.relax_dims(self.value(ssa), op)

    @staticmethod
    def relax_dims(value: SSAValue, op: Operation) -> tuple[PrimExpr, ...]:
        """The (symbolic) shape of a Relax tensor."""
        if not isinstance(value.type, TensorType) or value.type.dims is None:
            refuse(op, "an operand's shape is not known")
        return value.type.dims

    # -- operations ---------------------------------------------------------------

    def block(self, block: Block) -> list[SSAValue]:
        """Converts a block's operations; the Relax values its terminator returns."""
        for op in block.ops:
            if isinstance(op, func.ReturnOp | ops.ReturnOp):
                return [self.value(v) for v in op.operands]
            self.operation(op)
        raise DiagnosticError([at(block.parent_op(), "a block ends without a return")])

    def operation(self, op: Operation) -> None:
        self.bb.location = self._location(op)
        if len(op.results) == 1:
            known = evaluate(op, [self.known.get(o) for o in op.operands], self.dimension)
            if known is not None:
                self.known[op.results[0]] = known
                return
        self.current = op
        try:
            results = self.call(op) if isinstance(op, func.CallOp) else self.rule(op)(self, op)
            if len(results) != len(op.results):
                refuse(op, f"converted to {len(results)} values for {len(op.results)} results")
            values = [v if isinstance(v, SSAValue) else self.bb.emit(v) for v in results]
        except VerifyException as error:
            refuse(op, f"converts to invalid Relax: {error}")
        self.values.update(zip(op.results, values, strict=True))

    @staticmethod
    def rule(op: Operation) -> Rule:
        rule = RULES.get(type(op))
        if rule is None:
            refuse(op, "is not supported by the conversion to Relax")
        return rule

    def emit(self, expr: Expr) -> SSAValue:
        return self.bb.emit(expr)

    def fresh_function_name(self, kind: str) -> str:
        """A name no function of either module has (``while1``, ``while2``...)."""
        self._loops += 1
        while f"{kind}{self._loops}" in self.functions or self.bb.function_named(
            f"{kind}{self._loops}"
        ):
            self._loops += 1
        return f"{kind}{self._loops}"

    @staticmethod
    def _location(op: Operation) -> FileLineColLoc | None:
        return op.location if isinstance(op.location, FileLineColLoc) else None


def result_tuple(cv: Converter, value: SSAValue, count: int) -> list[SSAValue]:
    """The fields of a tuple of ``count`` values (the value itself for one)."""
    if count == 1:
        return [value]
    return [cv.bb.tuple_get_item(value, i) for i in range(count)]


def relax_type(value: SSAValue) -> StructInfoType:
    assert isinstance(value.type, StructInfoType)
    return value.type


def tuple_type(types: Sequence[StructInfoType]) -> StructInfoType:
    return types[0] if len(types) == 1 else TupleType(list(types))


def scalar_constant(value: float | int | bool, dtype: str) -> np.ndarray:
    return np.array(value, numpy_dtype(dtype))


def dense_array(attribute: DenseIntOrFPElementsAttr, dtype: str) -> np.ndarray:
    """The NumPy array of a ``dense<...>`` constant."""
    shape = tuple(attribute.get_shape() or ())
    values = list(attribute.get_values())
    if len(values) == 1:
        values = values * int(np.prod(shape, dtype=np.int64))
    return np.array(values, numpy_dtype(dtype)).reshape(shape)
