"""The state of lowering one Relax function, and the helpers every lowering uses.

A ``Lowerer`` appends builtin operations to its current block (``emit``). It
maps each Relax value to its lowered values (``values``: a list, flattened as
``flat_types`` says) and each bound symbolic variable to an ``index`` value
(``symbols``). Symbolic expressions are materialised with ``arith`` once per
scope (``index_of``). Run-time checks are ``cf.assert`` operations whose
message starts with the Relax source location (``check``); ``match`` binds and
checks a value against a StructInfo as ``match_cast`` and calls do.
"""

from __future__ import annotations

import operator
from collections import ChainMap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from itertools import count
from typing import NoReturn, TypeVar

from xdsl.dialects import arith, cf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator

from relax_dialect.diagnostics import Diagnostic, DiagnosticError, location_of
from relax_dialect.prim_expr import Apply, BoolImm, FloatImm, IntImm, PrimExpr, Var, to_text
from relax_dialect.prim_expr_simplify import prove_equal
from relax_dialect.struct_info import is_base_of
from relax_dialect.types import PrimType, ShapeType, StructInfoType, TupleType
from relax_dialect.types import TensorType as RelaxTensor

from .building import build, float_attr, integer_attr
from .type_conversion import Unconvertible, element_type, flat_types

OpT = TypeVar("OpT", bound=Operation)
MatchItem = tuple[
    Sequence[SSAValue], StructInfoType, "Operation | SSAValue", str, "StructInfoType | None"
]
"""What ``match_all`` checks: values, target type, where, context, source type."""
Handler = Callable[["Lowerer", Operation], "SSAValue | Sequence[SSAValue] | None"]
"""Lowers one Relax operation: returns its result's lowered values, or None when
it recorded them itself (``Lowerer.values``)."""

INDEX = IndexType()
_INDEX_OPS: dict[str, type[Operation]] = {
    "add": arith.AddiOp,
    "sub": arith.SubiOp,
    "mul": arith.MuliOp,
    "floordiv": arith.FloorDivSIOp,
    "min": arith.MinSIOp,
    "max": arith.MaxSIOp,
    "and": arith.AndIOp,
    "or": arith.OrIOp,
}


def _divide_toward_zero(a: int, b: int) -> int | None:
    return None if b == 0 else (abs(a) // abs(b)) * (-1 if (a < 0) != (b < 0) else 1)


def _floor_divide(a: int, b: int) -> int | None:
    return None if b == 0 else a // b


_INDEX_FOLDERS: dict[type[Operation], Callable[[int, int], int | None]] = {
    arith.AddiOp: operator.add,
    arith.SubiOp: operator.sub,
    arith.MuliOp: operator.mul,
    arith.DivSIOp: _divide_toward_zero,
    arith.FloorDivSIOp: _floor_divide,
    arith.MinSIOp: min,
    arith.MaxSIOp: max,
}
"""``index`` arithmetic folded when both operands are constants (``Lowerer._fold``);
division by zero is left to run time."""
_RIGHT_IDENTITIES = {
    arith.AddiOp: 0,
    arith.SubiOp: 0,
    arith.MuliOp: 1,
    arith.DivSIOp: 1,
    arith.FloorDivSIOp: 1,
}
_LEFT_IDENTITIES = {arith.AddiOp: 0, arith.MuliOp: 1}
_INDEX_COMPARISONS = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}


def static_index(value: SSAValue) -> int | None:
    """The value of an ``index`` constant (``arith.constant``), else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(value.type, IndexType):
        constant = owner.value
        assert isinstance(constant, IntegerAttr)
        return constant.value.data
    return None


class LoweringError(DiagnosticError):
    """A Relax construct that cannot be lowered, located at the operation."""


class Lowerer:
    """Lowering state of one function: value map, symbol map, insertion point."""

    def __init__(self, block: Block, lower_op: Callable[[Lowerer, Operation], None]):
        self.block = block
        self.values: dict[SSAValue, list[SSAValue]] = {}
        self.symbols: ChainMap[str, SSAValue] = ChainMap()
        self._cache: ChainMap[object, SSAValue] = ChainMap()
        self._lower_op = lower_op
        self.fresh = count()
        """Numbers fresh symbolic variables (``ops.common.symbol``)."""
        self.result_sinfo: StructInfoType | None = None
        """The inferred type of the operator being lowered (see ``result_type``)."""

    # -- emitting ----------------------------------------------------------------

    def emit(self, op: OpT) -> OpT:
        """Append ``op`` to the current block."""
        self.block.add_op(op)
        return op

    def emit_value(self, op: Operation) -> SSAValue:
        """Append ``op`` and return its (single) result."""
        self.block.add_op(op)
        return op.results[0]

    def make(self, cls: type[Operation], *args: object) -> SSAValue:
        """Append ``cls(*args)`` (built cheaply, ``building.build``) and return its
        (single) result; ``index`` arithmetic is folded first (``_fold``)."""
        if cls in _INDEX_FOLDERS and (folded := self._fold(cls, *args)) is not None:
            return folded
        op = build(cls, *args)
        self.block.add_op(op)
        (result,) = op.results
        return result

    def _fold(self, cls: type[Operation], *args: object) -> SSAValue | None:
        """``cls(lhs, rhs)`` on ``index`` values as MLIR's folders leave it: computed
        when both are constants, ``lhs`` for ``x + 0``, ``x - 0``, ``x * 1``,
        ``x / 1`` (``rhs`` for ``0 + x``, ``1 * x``); None when it stays."""
        if len(args) != 2:
            return None
        lhs, rhs = args
        if not isinstance(lhs, SSAValue) or not isinstance(rhs, SSAValue):
            return None
        if not isinstance(lhs.type, IndexType) or not isinstance(rhs.type, IndexType):
            return None
        a, b = static_index(lhs), static_index(rhs)
        if a is not None and b is not None and (value := _INDEX_FOLDERS[cls](a, b)) is not None:
            return self.constant_index((value + (1 << 63)) % (1 << 64) - (1 << 63))
        if b is not None and _RIGHT_IDENTITIES.get(cls) == b:
            return lhs
        if a is not None and _LEFT_IDENTITIES.get(cls) == a:
            return rhs
        return None

    @contextmanager
    def inside(self, block: Block) -> Iterator[Block]:
        """Emit into ``block`` (a region body), in a nested scope: symbols bound and
        expressions materialised there are forgotten afterwards."""
        saved = self.block, self.symbols, self._cache
        self.block = block
        self.symbols = self.symbols.new_child()
        self._cache = self._cache.new_child()
        try:
            yield block
        finally:
            self.block, self.symbols, self._cache = saved

    def lower_block(self, block: Block) -> None:
        """Lower the bindings of a Relax block (its terminator excluded)."""
        last = block.last_op
        for op in block.ops:
            if op is not last or not op.has_trait(IsTerminator):
                self._lower_op(self, op)

    # -- values ------------------------------------------------------------------

    def lowered(self, value: SSAValue) -> list[SSAValue]:
        """The lowered values of a Relax value."""
        return self.values[value]

    def operand(self, op: Operation, index: int) -> SSAValue:
        """The single lowered value of operand ``index`` (a tensor or prim value)."""
        values = self.values[op.operands[index]]
        if len(values) != 1:
            self.error(op, f"operand {index} is not a tensor or a prim value")
        return values[0]

    def result_type(self, op: Operation) -> RelaxTensor:
        """The (inferred) tensor type of the operator's result, which its lowering
        computes; the driver then casts to the declared type."""
        sinfo = self.result_sinfo
        if not isinstance(sinfo, RelaxTensor):
            self.error(op, "the result is not a tensor")
        return sinfo

    def error(self, op: Operation | SSAValue, message: str) -> NoReturn:
        """Stop with a located error naming the operation (``NAME: message`` unless the
        message names it or a function, ``@f: ...``)."""
        if isinstance(op, Operation) and op.name not in message and message[0] != "@":
            message = f"{op.name}: {message}"
        raise LoweringError([Diagnostic(location_of(op), message)])

    def types_of(
        self, op: Operation | SSAValue, sinfo: StructInfoType, what: str = ""
    ) -> tuple[Attribute, ...]:
        """``flat_types(sinfo)``, or a located error (``WHAT: cannot be lowered: why``)."""
        try:
            return flat_types(sinfo)
        except Unconvertible as reason:
            self.error(op, f"{what}{': ' if what else ''}cannot be lowered: {reason}")

    # -- symbolic expressions ------------------------------------------------------

    def constant_index(self, value: int) -> SSAValue:
        return self.index_of(IntImm(value))

    def index_of(self, expr: PrimExpr, at: Operation | None = None) -> SSAValue:
        """``expr`` as an ``index`` value (``i1`` for conditions), computed with
        ``arith`` from the bound symbolic variables; shared within a scope."""
        return self.shared(expr, lambda: self._materialise(expr, at))

    def constant(self, value: IntegerAttr | FloatAttr) -> SSAValue:
        """``arith.constant value``, shared within a scope (a float by its bits:
        ``-0.0`` is not ``0.0``)."""
        data = value.value.data
        key = (value.type, data.hex() if isinstance(data, float) else data)
        return self.shared(key, lambda: self.make(arith.ConstantOp, value))

    def shared(self, key: object, build: Callable[[], SSAValue]) -> SSAValue:
        """The value of ``key`` in this scope or an enclosing one, else ``build()``,
        remembered in this scope."""
        for scope in self._cache.maps:  # as ``self._cache.get``, which is slow
            found = scope.get(key)
            if found is not None:
                return found
        value = self._cache[key] = build()
        return value

    def _materialise(self, expr: PrimExpr, at: Operation | None) -> SSAValue:
        if isinstance(expr, IntImm):
            return self.make(arith.ConstantOp, integer_attr(expr.value, INDEX))
        if isinstance(expr, BoolImm):
            return self.make(arith.ConstantOp, integer_attr(int(expr.value), i1))
        if isinstance(expr, Var):
            bound = self.symbols.get(expr.name)
            if bound is None:
                self.error(
                    at or self.block.parent_op(), f"symbolic variable {expr.name} is unbound"
                )
            return bound
        if isinstance(expr, FloatImm):
            self.error(at or self.block.parent_op(), f"'{to_text(expr)}' is not an integer")
        assert isinstance(expr, Apply)
        args = [self.index_of(a, at) for a in expr.args]
        if expr.op in _INDEX_OPS:
            return self.make(_INDEX_OPS[expr.op], *args)
        if expr.op == "floormod":
            quotient = self.make(arith.FloorDivSIOp, *args)
            product = self.make(arith.MuliOp, quotient, args[1])
            return self.make(arith.SubiOp, args[0], product)
        if expr.op in _INDEX_COMPARISONS:
            return self.make(arith.CmpiOp, *args, _INDEX_COMPARISONS[expr.op])
        if expr.op == "not":
            true = self.index_of(BoolImm(True))
            return self.make(arith.XOrIOp, args[0], true)
        assert expr.op == "select"
        return self.make(arith.SelectOp, *args)

    def product(self, sizes: Sequence[SSAValue]) -> SSAValue:
        """The product of ``index`` values (1 for none), its constant factors folded;
        shared within a scope."""
        folded, factors = 1, []
        for size in sizes:
            static = static_index(size)
            if static is None:
                factors.append(size)
            else:
                folded *= static
        if folded != 1 or not factors:
            factors.append(self.constant_index(folded))
        total = factors[0]
        for factor in factors[1:]:
            total = self.shared(
                (arith.MuliOp, total, factor), partial(self.make, arith.MuliOp, total, factor)
            )
        return total

    def scalar_of(self, expr: PrimExpr, type: Attribute, at: Operation | None = None) -> SSAValue:
        """``expr`` as a scalar of builtin ``type`` (a prim value's lowered form)."""
        if isinstance(expr, FloatImm | IntImm) and not isinstance(type, IntegerType | IndexType):
            return self.constant(float_attr(float(expr.value), type))
        value = self.index_of(expr, at)
        if value.type == type:
            return value
        if isinstance(value.type, IntegerType):  # a condition: i1 to a wider integer
            return self.make(arith.ExtUIOp, value, type)
        if isinstance(type, IntegerType):
            return self.make(arith.IndexCastOp, value, type)
        as_int = self.make(arith.IndexCastOp, value, i64)
        return self.make(arith.SIToFPOp, as_int, type)

    def as_index(self, value: SSAValue) -> SSAValue:
        """An integer scalar as an ``index``."""
        if isinstance(value.type, IndexType):
            return value
        if value.type == i1:
            value = self.make(arith.ExtUIOp, value, i64)
        return self.make(arith.IndexCastOp, value, INDEX)

    # -- tensors -------------------------------------------------------------------

    def dim(self, tensor_value: SSAValue, axis: int) -> SSAValue:
        """Size ``axis`` of a lowered tensor: a constant when static; the size it was
        made with (``tensor.empty``'s operand; a linalg result has the size of its
        init); else ``tensor.dim``, shared within a scope."""
        shape = tensor_value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        if shape[axis] != DYNAMIC_INDEX:
            return self.constant_index(shape[axis])
        owner = tensor_value.owner
        if isinstance(owner, tensor.EmptyOp):
            dynamic = [a for a, size in enumerate(shape) if size == DYNAMIC_INDEX]
            return owner.dynamic_sizes[dynamic.index(axis)]
        if isinstance(owner, LinalgStructuredOperation) and isinstance(tensor_value, OpResult):
            return self.dim(owner.outputs[tensor_value.index], axis)
        return self.shared(
            (tensor.DimOp, tensor_value, axis),
            lambda: self.make(tensor.DimOp, tensor_value, self.constant_index(axis)),
        )

    def dims(self, value: SSAValue) -> list[SSAValue]:
        """The sizes of a Relax tensor value, from its type's symbolic dimensions
        when known (run-time checks keep them true), else ``tensor.dim``."""
        sinfo = value.type
        lowered = self.values[value][0]
        assert isinstance(sinfo, RelaxTensor)
        if sinfo.dims is None:
            return [self.dim(lowered, axis) for axis in range(sinfo.rank)]
        return [self.index_of(d) for d in sinfo.dims]

    def empty(self, type: Attribute, sizes: Sequence[SSAValue]) -> SSAValue:
        """``tensor.empty`` of builtin tensor ``type`` with the given sizes (those
        static in ``type`` are not passed)."""
        shape = type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
        dynamic = [s for s, static in zip(sizes, shape, strict=True) if static == DYNAMIC_INDEX]
        return self.make(tensor.EmptyOp, dynamic, type)

    def cast(self, value: SSAValue, type: Attribute) -> SSAValue:
        """``value`` as ``type`` (``tensor.cast`` between static and dynamic sizes;
        the caller has checked the static ones)."""
        if value.type == type:
            return value
        assert isinstance(type, TensorType)
        return self.make(tensor.CastOp, value, type)

    # -- run-time checks -------------------------------------------------------------

    def check(self, condition: SSAValue, op: Operation | SSAValue, message: str) -> None:
        """``cf.assert condition`` with ``FILE:LINE:COL: message`` (the Relax location
        of ``op`` when known)."""
        where = location_of(op)
        text = message if where is None else f"{where}: {message}"
        self.emit(cf.AssertOp(condition, text))

    def check_equal(
        self, actual: SSAValue, expected: SSAValue, op: Operation | SSAValue, message: str
    ) -> None:
        """Assert two ``index`` values are equal (nothing when they are the same value)."""
        if actual is expected:
            return
        self.check(self.make(arith.CmpiOp, actual, expected, "eq"), op, message)

    def match(
        self,
        values: Sequence[SSAValue],
        target: StructInfoType,
        op: Operation | SSAValue,
        context: str,
        source: StructInfoType | None = None,
    ) -> list[SSAValue]:
        """Check lowered ``values`` against ``target`` at run time as the reference
        interpreter's ``match`` does (see ``match_all``); returns them cast to
        ``target``'s lowered types."""
        return self.match_all([(values, target, op, context, source)])[0]

    def match_all(self, items: Sequence[MatchItem]) -> list[list[SSAValue]]:
        """Match several values at once, as a call's parameters: first every unbound
        symbolic variable standing alone in a dimension is bound to the actual size,
        then every other dimension is compared (``CONTEXT: dimension 1 is not n + 1``,
        located at the item's operation). Dimensions that the item's ``source`` type
        proves equal are not checked."""
        pending: list[tuple[SSAValue, PrimExpr, str, Operation | SSAValue]] = []
        cast = []
        for values, target, op, context, source in items:
            types = self.types_of(op, target)
            if len(types) != len(values):
                self.error(op, f"{context}: expected {len(types)} values, got {len(values)}")
            found: list[tuple[SSAValue, PrimExpr, str]] = []
            self._bind(values, target, source, "", found)
            pending += [(actual, dim, f"{context}: {what}", op) for actual, dim, what in found]
            cast.append((values, types))
        for actual, expected, what, op in pending:
            message = f"{what} is not {to_text(expected)}"
            self.check_equal(actual, self.index_of(expected), op, message)
        return [[self.cast(v, t) for v, t in zip(vs, ts, strict=True)] for vs, ts in cast]

    def coerce(
        self,
        values: Sequence[SSAValue],
        source: StructInfoType,
        target: StructInfoType,
        op: Operation | SSAValue,
        context: str,
    ) -> list[SSAValue]:
        """Values of type ``source`` as values of type ``target``: cast when
        ``target`` is at least as general, else matched (checked) first."""
        if source == target:
            return list(values)
        if is_base_of(target, source):
            types = self.types_of(op, target)
            return [self.cast(v, t) for v, t in zip(values, types, strict=True)]
        return self.match(values, target, op, context, source)

    def cast_checked(
        self, values: Sequence[SSAValue], types: Sequence[Attribute], op: Operation, context: str
    ) -> list[SSAValue]:
        """Values cast to builtin ``types``, a static size of a type that the value's
        type leaves dynamic checked first (``CONTEXT: dimension 0 is not 4``)."""
        cast = []
        for value, type in zip(values, types, strict=True):
            if isinstance(type, TensorType) and value.type != type:
                source = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
                for axis, size in enumerate(type.get_shape()):
                    if size != DYNAMIC_INDEX and source[axis] == DYNAMIC_INDEX:
                        actual = self.dim(value, axis)
                        message = f"{context}: dimension {axis} is not {size}"
                        self.check_equal(actual, self.constant_index(size), op, message)
            cast.append(self.cast(value, type))
        return cast

    def _bind(
        self,
        values: Sequence[SSAValue],
        target: StructInfoType,
        source: StructInfoType | None,
        prefix: str,
        pending: list[tuple[SSAValue, PrimExpr, str]],
    ) -> None:
        """Bind what ``target`` binds; collect the comparisons still to make."""
        if isinstance(target, TupleType):
            fields = source.types if isinstance(source, TupleType) else [None] * len(target.types)
            start = 0
            for index, (field, known) in enumerate(zip(target.types, fields, strict=True)):
                count = len(flat_types(field))
                here = f"{prefix}field {index}: "
                self._bind(values[start : start + count], field, known, here, pending)
                start += count
            return
        if isinstance(target, PrimType):
            expected = target.known_value
            if expected is None or expected.kind != "int":
                return
            prim, known = values[0], _known_value(source)
            what = f"{prefix}prim value"
            self._bind_dim(lambda: self.as_index(prim), expected, known, what, pending)
            return
        dims = target.dims if isinstance(target, RelaxTensor | ShapeType) else None
        if dims is None:
            return
        known_dims = source.dims if isinstance(source, RelaxTensor | ShapeType) else None
        what = "dimension" if isinstance(target, RelaxTensor) else "shape value"
        for axis, dim in enumerate(dims):
            if isinstance(target, RelaxTensor):
                static = values[0].type.get_shape()[axis]  # pyright: ignore[reportAttributeAccessIssue]
                if isinstance(dim, IntImm) and static == dim.value:
                    continue

                def actual(axis: int = axis) -> SSAValue:
                    return self.dim(values[0], axis)
            else:

                def actual(axis: int = axis) -> SSAValue:
                    return values[axis]

            known = known_dims[axis] if known_dims is not None else None
            self._bind_dim(actual, dim, known, f"{prefix}{what} {axis}", pending)

    def _bind_dim(
        self,
        actual: Callable[[], SSAValue],
        expected: PrimExpr,
        known: PrimExpr | None,
        what: str,
        pending: list[tuple[SSAValue, PrimExpr, str]],
    ) -> None:
        """Bind ``expected`` (an unbound variable) to the ``actual`` size, or record
        the comparison (unless ``known``, the source's size, proves it)."""
        if known is not None and prove_equal(known, expected):
            return
        value = actual()
        if isinstance(expected, Var) and expected.name not in self.symbols:
            self.symbols[expected.name] = value
            self._cache[expected] = value
            return
        pending.append((value, expected, what))


def _known_value(sinfo: StructInfoType | None) -> PrimExpr | None:
    return sinfo.known_value if isinstance(sinfo, PrimType) else None


def element_of(sinfo: StructInfoType) -> Attribute:
    """The builtin element type of a tensor or prim type."""
    assert isinstance(sinfo, RelaxTensor | PrimType)
    return element_type(sinfo.data_type)
