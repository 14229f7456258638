"""The reference interpreter: Relax's run-time semantics over NumPy values.

Each function is compiled once into a list of steps, one per operation, that
read and write the slots of a frame (a Python list); a call allocates a frame,
checks the arguments against the parameter annotations (binding the
signature's symbolic variables), runs the steps and checks the result against
the return annotation. Symbolic variables live in a per-call dictionary; a
closure captures the outer values it uses and the symbolic variables bound
when it was created.

A failed run-time check raises ``RelaxRuntimeError`` naming the operation (or
parameter) whose check failed, so that the driver can print
``FILE:LINE:COL: error: MESSAGE``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import SymbolTable

from ..analysis.call_graph import functions, recursive_groups
from ..analysis.effects import in_place_outputs
from ..diagnostics import location_of
from ..dtype import DataType
from ..numerics import KERNEL_ERRORS, kernel_for
from ..ops.alias import AliasOp
from ..ops.base import BindingOp
from ..ops.calls import (
    CallDPSPackedOp,
    CallInplacePackedOp,
    CallOp,
    CallPackedOp,
    CallPurePackedOp,
    InvokeOp,
    TIRCallBase,
    output_tensors,
)
from ..ops.control_flow import IfOp, YieldOp
from ..ops.core import InvokeClosureBase, MakeClosureOp
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
from ..recursion import MAX_CALL_DEPTH, deep_recursion, on_large_stack
from ..tir_executor import (
    UNWIRED,
    TIRArgument,
    TIRExecutionError,
    TIRExecutor,
    wired_tir_executor,
)
from ..types import FuncType, StructInfoType, TensorType
from ..values import (
    Closure,
    OperatorValue,
    PackedFunc,
    PrimValue,
    ShapeValue,
    describe,
    out_of_memory,
)
from .checks import (
    ArgumentMismatch,
    MatchFailure,
    check,
    evaluate_symbolic,
    match,
    match_all,
    run_time_struct_info,
)
from .packed import PackedRegistry

Frame = list[object]
Symbols = dict[str, int]
Step = Callable[[Frame, Symbols], None]


class RelaxRuntimeError(Exception):
    """A run-time check that failed, at an operation or function parameter."""

    def __init__(self, where: Operation | SSAValue | None, message: str):
        super().__init__(message)
        self.where = where
        self.message = message


@dataclass
class CompiledFunction:
    """A function ready to run: its steps over a frame of ``size`` slots."""

    name: str
    op: FunctionLike
    size: int = 0
    params: list[int] = field(default_factory=list)
    captures: list[int] = field(default_factory=list)
    self_slot: int | None = None
    steps: list[Step] = field(default_factory=list)
    result: int = 0


class Machine:
    """Runs the functions of one module; ``call_tir`` targets run on ``tir``, else on
    the wired executor (``relax_dialect.tir_executor``)."""

    def __init__(
        self,
        module: ModuleOp,
        packed: PackedRegistry | None = None,
        tir: TIRExecutor | None = None,
    ):
        self.module = module
        self.packed = packed if packed is not None else PackedRegistry()
        self._tir = tir
        self._globals = {function.sym_name.data: function for function in functions(module)}
        self._compiled: dict[str, CompiledFunction] = {}
        self._depth = 0
        """The calls under way (``MAX_CALL_DEPTH`` at most)."""

    @cached_property
    def _recursive(self) -> bool:
        """Whether calls can nest without bound: a cycle of calls, or closures."""
        return bool(recursive_groups(self.module)) or any(
            isinstance(op, InvokeClosureBase) for op in self.module.walk()
        )

    def function(self, name: str) -> CompiledFunction:
        """The compiled global function ``@name``."""
        compiled = self._compiled.get(name)
        if compiled is None:
            op = self._globals.get(name)
            if op is None:
                other = SymbolTable.lookup_symbol(self.module, name)
                if other is not None:
                    raise RelaxRuntimeError(
                        other, f"@{name} is a {other.name}, not a Relax function (lowered already?)"
                    )
                raise RelaxRuntimeError(None, f"no function @{name} in the module")
            compiled = _Compiler(self, op, None).compile(f"@{name}")
            self._compiled[name] = compiled
        return compiled

    def tir(self, call: TIRCallBase) -> TIRExecutor:
        """The executor of ``call_tir`` targets (the wired one is made on first use)."""
        if self._tir is None:
            self._tir = wired_tir_executor()
            if self._tir is None:
                raise RelaxRuntimeError(call, f"{call.name} @{call.callee_name}: {UNWIRED}")
        return self._tir

    def run(self, entry: str, *args: object) -> object:
        """Call the global function ``entry`` with run-time values (on a large stack
        when the module can recurse, for ``MAX_CALL_DEPTH`` nested calls)."""

        def call() -> object:
            with deep_recursion():
                return self.call(self.function(entry), list(args))

        try:
            return on_large_stack(call) if self._recursive else call()
        except RecursionError:
            raise RelaxRuntimeError(None, "recursion too deep") from None

    def call(
        self,
        function: CompiledFunction,
        args: Sequence[object],
        closure: Closure | None = None,
        call_site: Operation | None = None,
    ) -> object:
        """Run a compiled function: check the arguments, run, check the result."""
        frame: Frame = [None] * function.size
        symbols: Symbols = {}
        if closure is not None:
            symbols.update(closure.symbols)
            for slot, value in zip(function.captures, closure.captured, strict=True):
                frame[slot] = value
            if function.self_slot is not None:
                frame[function.self_slot] = closure
        params = function.op.params
        if len(args) != len(params):
            raise RelaxRuntimeError(
                call_site, f"{function.name} takes {len(params)} arguments, got {len(args)}"
            )
        try:
            match_all(args, function.op.param_types(), symbols)
        except ArgumentMismatch as mismatch:
            raise RelaxRuntimeError(
                params[mismatch.index], f"{function.name}: {mismatch}{_called_from(call_site)}"
            ) from None
        for slot, value in zip(function.params, args, strict=True):
            frame[slot] = value
        if self._depth > MAX_CALL_DEPTH:
            raise RelaxRuntimeError(
                call_site, f"recursion too deep: more than {MAX_CALL_DEPTH} nested calls"
            )
        self._depth += 1
        try:
            for step in function.steps:
                step(frame, symbols)
        finally:
            self._depth -= 1
        result = frame[function.result]
        ret_type = function.op.ret_type
        if isinstance(ret_type, StructInfoType):
            try:
                match(result, ret_type, symbols)
            except MatchFailure as failure:
                returned = function.op.body.block.last_op
                raise RelaxRuntimeError(
                    returned, f"{function.name}: return value: {failure}"
                ) from None
        return result


def _called_from(call_site: Operation | None) -> str:
    location = location_of(call_site)
    return f" (called from {location})" if location is not None else ""


class _Compiler:
    """Compiles one function (global or lambda) into steps over frame slots."""

    def __init__(self, machine: Machine, op: FunctionLike, outer: _Compiler | None):
        self.machine = machine
        self.op = op
        self.outer = outer
        self.slots: dict[SSAValue, int] = {}
        self.captured: list[SSAValue] = []
        self.local: set[SSAValue] = set()

    def compile(self, name: str) -> CompiledFunction:
        function = CompiledFunction(name, self.op)
        if isinstance(self.op, LambdaOp) and self.op.self_reference is not None:
            function.self_slot = self.define(self.op.self_reference)
        function.params = [self.define(p) for p in self.op.params]
        function.steps = self.block(self.op.body.block)
        returned = self.op.body.block.last_op
        assert isinstance(returned, ReturnOp)
        function.result = self.slot(returned.value)
        function.captures = [self.slots[v] for v in self.captured]
        function.size = len(self.slots)
        return function

    # -- slots --

    def define(self, value: SSAValue) -> int:
        slot = self.slots[value] = len(self.slots)
        self.local.add(value)
        return slot

    def slot(self, value: SSAValue) -> int:
        """The slot of a value; one from an enclosing function becomes a capture."""
        slot = self.slots.get(value)
        if slot is None:
            slot = self.slots[value] = len(self.slots)
            self.captured.append(value)
        return slot

    # -- blocks --

    def block(self, block: Block) -> list[Step]:
        steps = []
        for op in block.ops:
            if isinstance(op, ReturnOp | YieldOp | OutputOp):
                continue
            steps.extend(self.operation(op))
        return steps

    def operation(self, op: Operation) -> list[Step]:
        if isinstance(op, DataflowOp):
            return self.dataflow(op)
        if isinstance(op, IfOp):
            return [self.branch(op)]
        if isinstance(op, LambdaOp):
            return [self.closure(op)]
        compute = self.compute(op)
        args = [self.slot(v) for v in op.operands]
        result = self.define(op.results[0])
        return [_step(op, compute, args, result)]

    def dataflow(self, op: DataflowOp) -> list[Step]:
        steps = self.block(op.body.block)
        sources = [self.slot(v) for v in op.output_op.values]
        targets = [self.define(r) for r in op.outputs]

        def export(frame: Frame, symbols: Symbols) -> None:
            for source, target in zip(sources, targets, strict=True):
                frame[target] = frame[source]

        return [*steps, export]

    def branch(self, op: IfOp) -> Step:
        cond = self.slot(op.cond)
        arms = []
        for region in (op.then_region, op.else_region):
            steps = self.block(region.block)
            yielded = region.block.last_op
            assert isinstance(yielded, YieldOp)
            arms.append((steps, self.slot(yielded.value)))
        result = self.define(op.result)

        def run_if(frame: Frame, symbols: Symbols) -> None:
            steps, value = arms[0] if _truth(op, frame[cond]) else arms[1]
            bound = set(symbols)
            for step in steps:
                step(frame, symbols)
            for name in set(symbols) - bound:
                del symbols[name]
            frame[result] = frame[value]

        return run_if

    def closure(self, op: LambdaOp) -> Step:
        inner = _Compiler(self.machine, op, self)
        function = inner.compile(f"lambda at {location_of(op) or 'unknown location'}")
        sources = [self.slot(v) for v in inner.captured]
        result = self.define(op.result)
        struct_info = op.function_type()

        def make_closure(frame: Frame, symbols: Symbols) -> None:
            frame[result] = Closure(
                function,
                [frame[s] for s in sources],
                dict(symbols),
                run_time_struct_info(struct_info, symbols),
            )

        return make_closure

    # -- binding operations --

    def compute(self, op: Operation) -> Callable[[Symbols, list[object]], object]:
        """How the operation computes its value from its operands' values."""
        for kind, build in _COMPUTATIONS:
            if isinstance(op, kind):
                return build(self, op)
        kernel = kernel_for(op)
        if kernel is None:
            raise RelaxRuntimeError(op, f"{op.name} has no implementation in the interpreter")
        return lambda symbols, args: kernel(*args)


def _step(
    op: Operation,
    compute: Callable[[Symbols, list[object]], object],
    args: list[int],
    result: int,
) -> Step:
    def run(frame: Frame, symbols: Symbols) -> None:
        try:
            frame[result] = compute(symbols, [frame[a] for a in args])
        except RelaxRuntimeError:
            raise
        except MatchFailure as failure:
            raise RelaxRuntimeError(op, f"{op.name}: {failure}") from None
        except KERNEL_ERRORS as error:
            raise RelaxRuntimeError(op, f"{op.name}: {str(error).strip()}") from None
        except MemoryError as error:
            binding = f"%{op.results[0].name_hint} = " if op.results[0].name_hint else ""
            raise RelaxRuntimeError(op, f"{binding}{op.name}: {out_of_memory(error)}") from None

    return run


def _truth(op: IfOp, cond: object) -> bool:
    if isinstance(cond, PrimValue):
        return bool(cond.value)
    if isinstance(cond, np.ndarray) and cond.size == 1 and cond.ndim == 0:
        return bool(cond)
    raise RelaxRuntimeError(op, f"relax.if: the condition is {describe(cond)}, not a scalar")


# --- value constructors -------------------------------------------------------


def _constant(compiler: _Compiler, op: ConstantOp) -> Callable[[Symbols, list[object]], object]:
    array = op.value.array
    return lambda symbols, args: array.copy()


def _shape(compiler: _Compiler, op: ShapeOp) -> Callable[[Symbols, list[object]], object]:
    dims = op.dims.data
    return lambda symbols, args: ShapeValue(tuple(int(evaluate_symbolic(d, symbols)) for d in dims))


def _prim_value(compiler: _Compiler, op: PrimValueOp) -> Callable[[Symbols, list[object]], object]:
    expr, dtype = op.value.data, op.data_type()
    python_type = bool if dtype.is_bool else float if dtype.is_float else int
    return lambda symbols, args: PrimValue(python_type(evaluate_symbolic(expr, symbols)), dtype)


def _string(compiler: _Compiler, op: StringImmOp) -> Callable[[Symbols, list[object]], object]:
    text = op.value.data
    return lambda symbols, args: text


def _data_type(compiler: _Compiler, op: DataTypeImmOp) -> Callable[[Symbols, list[object]], object]:
    dtype = op.value.data
    return lambda symbols, args: dtype


def _tuple(compiler: _Compiler, op: TupleOp) -> Callable[[Symbols, list[object]], object]:
    return lambda symbols, args: tuple(args)


def _get_item(compiler: _Compiler, op: TupleGetItemOp) -> Callable[[Symbols, list[object]], object]:
    index = op.index.data

    def get(symbols: Symbols, args: list[object]) -> object:
        (value,) = args
        if not isinstance(value, tuple) or index >= len(value):
            raise RelaxRuntimeError(
                op, f"relax.tuple_get_item: no field {index} in {describe(value)}"
            )
        return value[index]

    return get


def _alias(compiler: _Compiler, op: AliasOp) -> Callable[[Symbols, list[object]], object]:
    return lambda symbols, args: args[0]


def _match_cast(compiler: _Compiler, op: MatchCastOp) -> Callable[[Symbols, list[object]], object]:
    target = op.target

    def cast(symbols: Symbols, args: list[object]) -> object:
        (value,) = args
        try:
            match(value, target, symbols)
        except MatchFailure as failure:
            raise RelaxRuntimeError(op, f"match_cast: {failure}") from None
        return value

    return cast


# --- references and calls -------------------------------------------------------


def _global_var(compiler: _Compiler, op: GlobalVarOp) -> Callable[[Symbols, list[object]], object]:
    name = op.function.root_reference.data
    machine = compiler.machine

    def reference(symbols: Symbols, args: list[object]) -> object:
        function = machine.function(name)
        return Closure(function, [], {}, function.op.function_type())

    return reference


def _extern_func(
    compiler: _Compiler, op: ExternFuncOp
) -> Callable[[Symbols, list[object]], object]:
    registry, name = compiler.machine.packed, op.symbol.data
    declared = op.infer_type()

    def lookup(symbols: Symbols, args: list[object]) -> object:
        found = _packed(op, registry, name)
        return PackedFunc(found.name, found.implementation, declared)  # pyright: ignore

    return lookup


def _op_ref(compiler: _Compiler, op: OpRefOp) -> Callable[[Symbols, list[object]], object]:
    name = op.op_name.data
    return lambda symbols, args: OperatorValue(name)


def _call(compiler: _Compiler, op: CallOp) -> Callable[[Symbols, list[object]], object]:
    machine, name = compiler.machine, op.callee_name
    return lambda symbols, args: machine.call(machine.function(name), args, call_site=op)


def _invoke(compiler: _Compiler, op: InvokeOp) -> Callable[[Symbols, list[object]], object]:
    machine = compiler.machine
    if isinstance(op.callee.owner, OpRefOp):
        operator = op.callee.owner.operator()
        probe = operator.create(operands=list(op.args), result_types=[op.result.type])
        kernel = kernel_for(probe)
        probe.erase()
        if kernel is None:
            raise RelaxRuntimeError(op, f"{operator.name} has no implementation in the interpreter")
        return lambda symbols, args: kernel(*args[1:])

    return lambda symbols, args: _call_value(machine, op, args[0], args[1:])


def _call_value(machine: Machine, op: Operation, callee: object, args: list[object]) -> object:
    """Call a function value: a closure or a packed function."""
    if isinstance(callee, Closure):
        return machine.call(callee.function, [*callee.bound, *args], callee, op)
    if isinstance(callee, PackedFunc):
        return _call_packed(op, callee, args)
    raise RelaxRuntimeError(op, f"{op.name}: cannot call {describe(callee)}")


def _packed(op: Operation, registry: PackedRegistry, name: str) -> PackedFunc:
    found = registry.lookup(name)
    if found is None:
        raise RelaxRuntimeError(op, f"{op.name}: no packed function named '{name}' is registered")
    return found


def _call_packed(op: Operation, function: PackedFunc, args: Sequence[object]) -> object:
    try:
        return function.implementation(*args)
    except RelaxRuntimeError:
        raise
    except Exception as error:  # a packed function is user code: report, do not crash
        raise RelaxRuntimeError(
            op, f"{op.name}: packed function '{function.name}' failed: {error}"
        ) from None


def _packed_call(
    compiler: _Compiler, op: CallPackedOp | CallPurePackedOp | CallInplacePackedOp
) -> Callable[[Symbols, list[object]], object]:
    registry, name = compiler.machine.packed, op.callee.data
    return _checked_result(
        op, lambda symbols, args: _call_packed(op, _packed(op, registry, name), args)
    )


def _allocate(outputs: Sequence[TensorType], symbols: Symbols) -> list[np.ndarray]:
    arrays = []
    for out in outputs:
        assert out.dims is not None
        shape = tuple(int(evaluate_symbolic(d, symbols)) for d in out.dims)
        arrays.append(np.zeros(shape, dtype=out.data_type.to_numpy()))
    return arrays


def _pack_outputs(declared: StructInfoType, arrays: Sequence[np.ndarray]) -> object:
    return arrays[0] if isinstance(declared, TensorType) else tuple(arrays)


def _call_dps_packed(
    compiler: _Compiler, op: CallDPSPackedOp
) -> Callable[[Symbols, list[object]], object]:
    registry, name = compiler.machine.packed, op.callee.data
    declared = op.result.type
    outputs = output_tensors(op.name, declared)

    def call(symbols: Symbols, args: list[object]) -> object:
        arrays = _allocate(outputs, symbols)
        _call_packed(op, _packed(op, registry, name), [*args, *arrays])
        return _pack_outputs(declared, arrays)  # pyright: ignore[reportArgumentType]

    return call


def _call_tir(compiler: _Compiler, op: TIRCallBase) -> Callable[[Symbols, list[object]], object]:
    """``call_tir`` and ``call_tir_inplace``: an in-place output is the argument
    array itself, updated with what the callee returns for it."""
    machine, callee = compiler.machine, op.callee_name
    declared = op.result.type
    outputs = output_tensors(op.name, declared)
    n_args = len(op.args)
    in_place = in_place_outputs(op, len(outputs))

    def call(symbols: Symbols, args: list[object]) -> object:
        inputs: list[TIRArgument] = [
            a.value if isinstance(a, PrimValue) else a  # pyright: ignore[reportAssignmentType]
            for a in args[:n_args]
        ]
        if len(args) > n_args:
            shape = args[n_args]
            assert isinstance(shape, ShapeValue)
            inputs.extend(shape.dims)
        fresh = _allocate(outputs, symbols)
        arrays = [fresh[i] if index == -1 else args[index] for i, index in enumerate(in_place)]
        try:
            results = machine.tir(op).call(machine.module, callee, inputs, arrays)  # pyright: ignore
        except TIRExecutionError as error:
            raise RelaxRuntimeError(op, f"{op.name} @{callee}: {error}") from None
        for index, (result, out) in enumerate(zip(results, fresh, strict=True)):
            if result.shape != out.shape or result.dtype != out.dtype:
                raise RelaxRuntimeError(
                    op,
                    f"{op.name} @{callee}: output {index} is {describe(result)}, expected "
                    f"shape {list(out.shape)} and dtype {DataType.from_numpy(out.dtype)}",
                )
        for index, (result, array) in enumerate(zip(results, arrays, strict=True)):
            if in_place[index] != -1:
                np.copyto(array, result)  # pyright: ignore[reportArgumentType]
                results[index] = array  # pyright: ignore[reportArgumentType]
        return _pack_outputs(declared, results)  # pyright: ignore[reportArgumentType]

    return call


def _make_closure(
    compiler: _Compiler, op: MakeClosureOp
) -> Callable[[Symbols, list[object]], object]:
    machine, name = compiler.machine, op.function_name
    n_bound = len(op.captured)

    def make(symbols: Symbols, args: list[object]) -> object:
        function = machine.function(name)
        signature = function.op.function_type()
        rest = list(signature.param_types or ())[n_bound:]
        struct_info = FuncType(rest, signature.ret_type, signature.is_pure)
        return Closure(function, [], {}, struct_info, tuple(args))

    return make


def _invoke_closure(
    compiler: _Compiler, op: InvokeClosureBase
) -> Callable[[Symbols, list[object]], object]:
    machine = compiler.machine
    return _checked_result(op, lambda symbols, args: _call_value(machine, op, args[0], args[1:]))


def _checked_result(
    op: BindingOp, compute: Callable[[Symbols, list[object]], object]
) -> Callable[[Symbols, list[object]], object]:
    """A computation whose result must match the op's declared type (results of
    calls the types of which are declared, not derived)."""
    declared = op.results[0].type
    assert isinstance(declared, StructInfoType)

    def checked(symbols: Symbols, args: list[object]) -> object:
        result = compute(symbols, args)
        try:
            check(result, declared, dict(symbols))
        except MatchFailure as failure:
            raise RelaxRuntimeError(
                op, f"{op.name}: the result does not match its declared type: {failure}"
            ) from None
        return result

    return checked


_COMPUTATIONS: list[tuple[type, Callable[..., Callable[[Symbols, list[object]], object]]]] = [
    (ConstantOp, _constant),
    (ShapeOp, _shape),
    (PrimValueOp, _prim_value),
    (StringImmOp, _string),
    (DataTypeImmOp, _data_type),
    (TupleOp, _tuple),
    (TupleGetItemOp, _get_item),
    (MatchCastOp, _match_cast),
    (AliasOp, _alias),
    (GlobalVarOp, _global_var),
    (ExternFuncOp, _extern_func),
    (OpRefOp, _op_ref),
    (CallOp, _call),
    (InvokeOp, _invoke),
    (CallPackedOp, _packed_call),
    (CallPurePackedOp, _packed_call),
    (CallInplacePackedOp, _packed_call),
    (CallDPSPackedOp, _call_dps_packed),
    (TIRCallBase, _call_tir),
    (MakeClosureOp, _make_closure),
    (InvokeClosureBase, _invoke_closure),
]
