"""Constant folding of one binding through the NumPy kernels the interpreter uses
(``relax-fold-constant``, ``canonicalize``): an operation whose operands are known
at compile time — constants, shapes and prim values with known values, tuples of
those — becomes a constant (or a shape or prim value literal), within size limits.
``call_tir`` targets run on the wired executor (``relax_dialect.tir_executor``;
unfolded when none is wired)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import VerifyException

from ..analysis.effects import is_pure
from ..numerics import KERNEL_ERRORS, kernel_for
from ..ops.base import BindingOp
from ..ops.calls import CallTIROp, output_tensors
from ..ops.dataflow import DataflowOp
from ..ops.operator import OperatorOp
from ..ops.values import ConstantOp, TupleGetItemOp, TupleOp
from ..prim_expr import BoolImm, FloatImm, IntImm
from ..rewriting.materialize import materialize
from ..rewriting.patterns import BindingPattern, Replacement
from ..struct_info import is_base_of
from ..tir_executor import TIRExecutionError, TIRExecutor, wired_tir_executor
from ..types import PrimType, ShapeType, StructInfoType, TensorType, TupleType
from ..values import PrimValue, ShapeValue


@dataclass(frozen=True)
class Limits:
    """How large a folded result may be, in tensor elements (a folded result is
    stored in the program)."""

    max_size: int = 1 << 20
    """Largest folded result."""
    max_creation_size: int = 1024
    """Largest folded result of an operation without tensor operands (``zeros``,
    ``arange``...: cheaper to compute at run time than to store; TVM's limit)."""
    max_tir_size: int = 4096
    """Largest folded ``call_tir`` result."""

    def of(self, op: BindingOp, limit: int | None = None) -> int:
        creation = not any(has_tensor(v.type) for v in op.operands)
        bound = self.max_creation_size if creation else self.max_size
        return bound if limit is None else min(bound, limit)


class Folding(BindingPattern):
    """What the folding patterns share: the known values of operands (remembered
    in ``memo`` when one is given: a walk over a function shares one) and the size
    limits."""

    def __init__(self, limits: Limits | None = None, memo: dict[SSAValue, object] | None = None):
        self.limits = limits or Limits()
        self.memo = memo

    def known(self, value: SSAValue) -> object | None:
        """The run-time value of ``value`` when the program determines it: a
        constant, a shape or prim value whose type says it, a tuple of those; a
        dataflow block's output is known when its value is (TVM looks up the
        binding through the block)."""
        if self.memo is not None and value in self.memo:
            return self.memo[value]
        owner = value.owner
        found: object | None
        if isinstance(owner, ConstantOp):
            found = owner.value.array
        elif isinstance(owner, DataflowOp):
            found = self.known(owner.output_op.values[value.index])  # pyright: ignore
        elif isinstance(owner, TupleOp):
            fields = [self.known(f) for f in owner.fields]
            found = None if any(f is None for f in fields) else tuple(fields)
        else:
            found = known_from_type(value.type)
        if self.memo is not None:
            self.memo[value] = found
        return found

    def checked_result(
        self, op: BindingOp, inferred: StructInfoType, result: object
    ) -> Replacement | None:
        """The bindings of the result, if it has the type the binding promises."""
        if element_count(result) > self.limits.of(op):
            return None
        replacement = materialize(result, op.results[0].name_hint)
        if replacement is None:
            return None
        precise = replacement.value.type
        declared = op.results[0].type
        if is_base_of(inferred, precise) and is_base_of(declared, precise):  # pyright: ignore
            return replacement
        replacement.discard()
        return None


class FoldTupleGetItem(Folding):
    """A known field of a tuple is the field, or the literal its type determines.

    The field itself when the tuple is a ``relax.tuple``."""

    def replacement(self, op: TupleGetItemOp) -> Replacement | None:
        owner = op.tuple_value.owner
        if isinstance(owner, TupleOp):
            field = owner.fields[op.index.data]
            return None if self.known(field) is None else Replacement(field)
        determined = known_from_type(op.result.type)
        return None if determined is None else materialize(determined, op.result.name_hint)


class FoldOperator(Folding):
    """A pure operator of known operands is the constant its kernel computes.

    Or the shape or prim value literal its inferred type determines, whatever
    its operands."""

    def replacement(self, op: OperatorOp) -> Replacement | None:
        if not is_pure(op):
            return None
        args = [self.known(v) for v in op.operands]
        unknown = any(a is None for a in args)
        if unknown and isinstance(op.results[0].type, TensorType):
            return None  # only shapes and prim values are determined by their type
        try:
            inferred = op.infer_type()
        except VerifyException:
            return None
        if (determined := known_from_type(inferred)) is not None:
            return materialize(determined, op.results[0].name_hint)
        count = elements(inferred)
        if unknown or (count is not None and count > self.limits.of(op)):
            return None
        kernel = kernel_for(op)
        if kernel is None:
            return None
        try:
            result = kernel(*(fresh(a) for a in args))
        except KERNEL_ERRORS:
            return None
        return self.checked_result(op, inferred, result)


class FoldCallTIR(Folding):
    """``call_tir`` of known arguments, run by the wired TIR executor."""

    @cached_property
    def executor(self) -> TIRExecutor | None:
        """The wired TIR executor, made when a ``call_tir`` is first folded."""
        return wired_tir_executor()

    def replacement(self, op: CallTIROp) -> Replacement | None:
        declared = op.result.type
        assert isinstance(declared, StructInfoType)
        count = elements(declared)
        if count is None or count > self.limits.of(op, self.limits.max_tir_size):
            return None
        args = [self.known(v) for v in op.args]
        dims = () if op.tir_vars is None else self.known(op.tir_vars)
        if any(a is None for a in args) or dims is None:
            return None
        inputs = [a.value if isinstance(a, PrimValue) else fresh(a) for a in args]
        if isinstance(dims, ShapeValue):
            inputs.extend(dims.dims)
        outputs = [
            np.zeros([d.value for d in t.dims or ()], t.data_type.to_numpy())  # pyright: ignore
            for t in output_tensors(op.name, declared)
        ]
        module = op.get_toplevel_object()
        if self.executor is None or not isinstance(module, ModuleOp):
            return None
        try:
            results = self.executor.call(module, op.callee_name, inputs, outputs)  # pyright: ignore
        except TIRExecutionError:
            return None
        result = results[0] if isinstance(declared, TensorType) else tuple(results)
        return self.checked_result(op, declared, result)


def known_from_type(sinfo: object) -> object | None:
    """The value a type determines, if it does: a shape or prim value (or a
    tuple of those) whose dimensions or value are constants."""
    if isinstance(sinfo, TupleType):
        fields = [known_from_type(f) for f in sinfo.types]
        return None if any(f is None for f in fields) else tuple(fields)
    dims = sinfo.dims if isinstance(sinfo, ShapeType) else None
    if dims is not None and all(isinstance(d, IntImm) for d in dims):
        return ShapeValue(tuple(d.value for d in dims))  # pyright: ignore
    if isinstance(sinfo, PrimType):
        value = sinfo.known_value
        if isinstance(value, IntImm | FloatImm | BoolImm):
            dtype = sinfo.data_type
            kind = bool if dtype.is_bool else float if dtype.is_float else int
            return PrimValue(kind(value.value), dtype)
    return None


def elements(sinfo: StructInfoType) -> int | None:
    """The number of tensor elements of a value of this type, if static."""
    if isinstance(sinfo, TensorType):
        dims = sinfo.dims
        if dims is None or not all(isinstance(d, IntImm) for d in dims):
            return None
        return int(np.prod([d.value for d in dims], dtype=np.int64))  # pyright: ignore
    if isinstance(sinfo, TupleType):
        counts = [elements(f) for f in sinfo.types]
        return None if None in counts else sum(counts)  # pyright: ignore[reportArgumentType]
    return 0


def has_tensor(sinfo: object) -> bool:
    if isinstance(sinfo, TupleType):
        return any(has_tensor(f) for f in sinfo.types)
    return isinstance(sinfo, TensorType)


def element_count(value: object) -> int:
    if isinstance(value, np.ndarray):
        return value.size
    if isinstance(value, tuple):
        return sum(element_count(v) for v in value)
    return 0


def fresh(value: object) -> object:
    """A copy of a known value that a kernel may use as its own."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple):
        return tuple(fresh(v) for v in value)
    return value


def folding_patterns(
    limits: Limits | None = None, memo: dict[SSAValue, object] | None = None
) -> tuple[Folding, ...]:
    """The folding patterns, sharing ``limits`` and ``memo``."""
    return (FoldTupleGetItem(limits, memo), FoldCallTIR(limits, memo), FoldOperator(limits, memo))


PATTERNS: tuple[BindingPattern, ...] = folding_patterns()
