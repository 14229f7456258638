"""``relax-fold-constant``: evaluate pure operations whose operands are known.

Operators run on the NumPy kernels the interpreter uses (``kernel_for``), the
targets of ``call_tir`` on the wired executor (``relax_dialect.tir_executor``;
unfolded when none is wired): the pass has no operator semantics of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from ..analysis.effects import is_pure
from ..numerics import KERNEL_ERRORS, kernel_for
from ..ops.base import BindingOp
from ..ops.calls import CallTIROp, output_tensors
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionOp
from ..ops.operator import OperatorOp
from ..ops.values import ConstantOp, TupleGetItemOp, TupleOp
from ..prim_expr import BoolImm, FloatImm, IntImm
from ..rewriting.function_walk import FunctionWalk, Replacement, rewrite_functions
from ..rewriting.materialize import materialize
from ..struct_info import is_base_of
from ..tir_executor import TIRExecutionError, TIRExecutor, wired_tir_executor
from ..types import PrimType, ShapeType, StructInfoType, TensorType, TupleType
from ..values import PrimValue, ShapeValue


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


class FoldConstantWalk(FunctionWalk):
    """The rewrites of ``relax-fold-constant``."""

    def __init__(self, function: FunctionOp, refine: bool, options: FoldConstantPass):
        super().__init__(function, refine)
        self.options = options
        self._known: dict[SSAValue, object | None] = {}

    @cached_property
    def executor(self) -> TIRExecutor | None:
        """The wired TIR executor, made when a ``call_tir`` is first folded."""
        return wired_tir_executor()

    def known(self, value: SSAValue) -> object | None:
        """The run-time value of ``value`` when the program determines it: a
        constant, a shape or prim value whose type says it, a tuple of those; a
        dataflow block's output is known when its value is (TVM looks up the
        binding through the block)."""
        if value in self._known:
            return self._known[value]
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
        self._known[value] = found
        return found

    def rewrite(self, op: BindingOp) -> Replacement | None:
        if isinstance(op, TupleGetItemOp):
            return self.fold_get_item(op)
        if type(op) is CallTIROp:
            return self.fold_call_tir(op)
        if isinstance(op, OperatorOp) and is_pure(op):
            return self.fold_operator(op)
        return None

    def fold_get_item(self, op: TupleGetItemOp) -> Replacement | None:
        """A known field of a tuple: the field itself when the tuple is a literal."""
        owner = op.tuple_value.owner
        if isinstance(owner, TupleOp):
            field = owner.fields[op.index.data]
            return None if self.known(field) is None else Replacement(field)
        determined = known_from_type(op.result.type)
        return None if determined is None else materialize(determined, op.result.name_hint)

    def fold_operator(self, op: OperatorOp) -> Replacement | None:
        """An operator evaluated by its kernel, or a shape or prim value its
        inferred type determines."""
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
        if unknown or not self.within_limits(op, inferred):
            return None
        kernel = kernel_for(op)
        if kernel is None:
            return None
        try:
            result = kernel(*(fresh(a) for a in args))
        except KERNEL_ERRORS:
            return None
        return self.checked_result(op, inferred, result)

    def fold_call_tir(self, op: CallTIROp) -> Replacement | None:
        """``call_tir`` of known arguments, run by the wired TIR executor."""
        declared = op.result.type
        assert isinstance(declared, StructInfoType)
        count = elements(declared)
        if count is None or count > self.size_limit(op, self.options.max_tir_size):
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
        module = self.function.parent_op()
        assert isinstance(module, ModuleOp)
        if self.executor is None:
            return None
        try:
            results = self.executor.call(module, op.callee_name, inputs, outputs)  # pyright: ignore
        except TIRExecutionError:
            return None
        result = results[0] if isinstance(declared, TensorType) else tuple(results)
        return self.checked_result(op, declared, result)

    def within_limits(self, op: BindingOp, sinfo: StructInfoType) -> bool:
        """Whether a result of this type may be folded (unknown sizes are checked
        after evaluation)."""
        count = elements(sinfo)
        return count is None or count <= self.size_limit(op)

    def size_limit(self, op: BindingOp, limit: int | None = None) -> int:
        creation = not any(has_tensor(v.type) for v in op.operands)
        bound = self.options.max_creation_size if creation else self.options.max_size
        return bound if limit is None else min(bound, limit)

    def checked_result(
        self, op: BindingOp, inferred: StructInfoType, result: object
    ) -> Replacement | None:
        """The bindings of the result, if it has the type the binding promises."""
        if element_count(result) > self.size_limit(op):
            return None
        replacement = materialize(result, op.results[0].name_hint)
        if replacement is None:
            return None
        precise = replacement.value.type
        declared = op.results[0].type
        if is_base_of(inferred, precise) and is_base_of(declared, precise):  # pyright: ignore
            return replacement
        self.discard(replacement)
        return None


@dataclass(frozen=True)
class FoldConstantPass(ModulePass):
    """Evaluate pure operators (and ``call_tir``) whose operands are all known
    at compile time — constants, shapes and prim values with known values,
    tuples of those — and replace each by a constant (or a shape or prim value
    literal); ``shape_of`` of a static shape and fields of constant tuples fold
    too. The operations run on the interpreter's kernels. A result larger than
    ``max-size`` elements is not folded, nor one larger than
    ``max-creation-size`` computed without tensor operands (``zeros``,
    ``arange``...: cheaper to compute at run time than to store), nor a
    ``call_tir`` output larger than ``max-tir-size``."""

    name = "relax-fold-constant"

    max_size: int = 1 << 20
    """Largest folded result, in tensor elements."""
    max_creation_size: int = 1024
    """Largest folded result of an operation without tensor operands (TVM's limit)."""
    max_tir_size: int = 4096
    """Largest folded ``call_tir`` result (a folded result is stored in the program)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_functions(op, lambda function, refine: FoldConstantWalk(function, refine, self))
