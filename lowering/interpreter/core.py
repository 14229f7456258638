"""Kernel tables and the compiler of lowered functions into Python closures.

Each dialect module fills a ``KernelTable`` with *kernel factories*: called once per
operation, a factory returns the callable that computes the operation's results from
its operand values. Two consumers share the factories:

* ``Program`` compiles a ``func.func`` once into a list of steps over the slots of a
  frame (a Python list), one step per operation: running an operation costs one
  closure call around its kernel. Nested regions share the frame of their function.
* ``KernelTable.implement`` turns the table into ``@impl`` methods of an xDSL
  ``InterpreterFunctions`` class, so that xDSL's ``Interpreter`` (and ``xdsl-run``)
  can run the same kernels.

Operations with regions have *contextual* kernels: their factory receives an ``Env``
that turns each region into a ``Runner`` and each callee into a callable, and the
kernel receives the run-time context (the frame, or xDSL's interpreter) first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    Successor,
    impl,
    impl_terminator,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import SymbolTable

from relax_dialect.values import out_of_memory

Kernel = Callable[..., Any]
"""Computes an operation's result from its operand values: the value itself for one
result, a sequence of values otherwise. A contextual kernel always returns the
sequence of its results."""

Runner = Callable[[Any, Sequence[Any]], tuple[Any, ...]]
"""Runs a region in a context on its entry block's arguments; returns the operands of
the terminator that leaves it."""

Callee = Callable[[Any, Sequence[Any]], tuple[Any, ...]]
"""Calls a function in a context on arguments; returns its results."""

Branch = Callable[..., tuple[Block, Sequence[Any]]]
"""Computes the successor block of a branch and its arguments."""


class LoweredCheckError(Exception):
    """A ``cf.assert`` that failed; the message is the assertion's."""


class LoweredExecutionError(Exception):
    """An operation that cannot be run or failed while running."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


class Env(Protocol):
    """What the factory of an operation with regions or callees can ask for."""

    def region(self, region: Region, bound: Sequence[SSAValue] = ()) -> Runner:
        """A runner of region. Its arguments are those of the entry block followed by
        the values of ``bound``, results of operations inside region that the caller
        provides instead of running them (``linalg.index``)."""
        ...

    def callee(self, name: str) -> Callee:
        """A callable running the function @name of the module."""
        ...


ContextualFactory = Callable[[Any, Env], Kernel]


@dataclass
class KernelTable:
    """The kernels of one dialect."""

    plain: dict[type[Operation], Callable[[Any], Kernel]] = field(default_factory=dict)
    contextual: dict[type[Operation], ContextualFactory] = field(default_factory=dict)
    constants: set[type[Operation]] = field(default_factory=set)
    returns: set[type[Operation]] = field(default_factory=set)
    branches: dict[type[Operation], Callable[[Any], Branch]] = field(default_factory=dict)
    provided: set[type[Operation]] = field(default_factory=set)

    def kernel(self, *op_types: type[Operation], constant: bool = False) -> Callable[[Any], Any]:
        """Register a factory ``(op) -> kernel(*operands)``; a ``constant`` kernel takes
        no operands and is evaluated once, when its function is compiled."""

        def register(factory: Callable[[Any], Kernel]) -> Callable[[Any], Kernel]:
            for op_type in op_types:
                self.plain[op_type] = factory
                if constant:
                    self.constants.add(op_type)
            return factory

        return register

    def region_kernel(self, *op_types: type[Operation]) -> Callable[[Any], Any]:
        """Register a factory ``(op, env) -> kernel(context, *operands)``."""

        def register(factory: ContextualFactory) -> ContextualFactory:
            for op_type in op_types:
                self.contextual[op_type] = factory
            return factory

        return register

    def branch(self, *op_types: type[Operation]) -> Callable[[Any], Any]:
        """Register a factory ``(op) -> branch(*operands) -> (successor, arguments)``."""

        def register(factory: Callable[[Any], Branch]) -> Callable[[Any], Branch]:
            for op_type in op_types:
                self.branches[op_type] = factory
            return factory

        return register

    def returning(self, *op_types: type[Operation]) -> None:
        """Terminators whose operands are the results of their region."""
        self.returns.update(op_types)

    def provide(self, *op_types: type[Operation]) -> None:
        """Operations whose results the enclosing operation's runner provides."""
        self.provided.update(op_types)

    def update(self, other: KernelTable) -> None:
        """Add the kernels of other."""
        self.plain.update(other.plain)
        self.contextual.update(other.contextual)
        self.constants |= other.constants
        self.returns |= other.returns
        self.branches.update(other.branches)
        self.provided |= other.provided

    def supports(self, op_type: type[Operation]) -> bool:
        """Whether operations of op_type can run."""
        return (
            op_type in self.plain
            or op_type in self.contextual
            or op_type in self.returns
            or op_type in self.branches
            or op_type in self.provided
        )

    def implement(self, cls: type[InterpreterFunctions]) -> type[InterpreterFunctions]:
        """Class decorator adding an xDSL implementation of every operation of the table
        to cls (apply ``register_impls`` after it)."""
        for op_type, factory in self.plain.items():
            _add_method(cls, op_type, _xdsl_plain(op_type, factory))
        for op_type, factory in self.contextual.items():
            _add_method(cls, op_type, _xdsl_contextual(op_type, factory))
        for op_type in self.returns:
            _add_method(cls, op_type, _xdsl_return(op_type))
        for op_type, factory in self.branches.items():
            _add_method(cls, op_type, _xdsl_branch(op_type, factory))
        for op_type in self.provided:
            _add_method(cls, op_type, _xdsl_provided(op_type))
        return cls


def results_of(value: Any, count: int) -> tuple[Any, ...]:
    """A kernel's return value as a tuple of count results."""
    if count == 1:
        return (value,)
    return () if count == 0 else tuple(value)


# --- xDSL's interpreter -------------------------------------------------------------

_KERNELS_KEY = "relax_xdsl.lowering kernels"


def _add_method(cls: type, op_type: type[Operation], method: Any) -> None:
    setattr(cls, "run_" + op_type.name.replace(".", "_"), method)


def _cached_kernel(interpreter: Interpreter, op: Operation, make: Callable[[], Kernel]) -> Kernel:
    kernels = interpreter.get_data(InterpreterFunctions, _KERNELS_KEY, dict)
    kernel = kernels.get(op)
    if kernel is None:
        kernel = kernels[op] = make()
    return kernel


class _XDSLEnv:
    """Regions and callees run by xDSL's interpreter (the context)."""

    @staticmethod
    def region(region: Region, bound: Sequence[SSAValue] = ()) -> Runner:
        count = len(region.blocks.first.args) if region.blocks.first else 0

        def run(interpreter: Interpreter, args: Sequence[Any]) -> tuple[Any, ...]:
            interpreter.push_scope("provided")
            interpreter.set_values(zip(bound, args[count:], strict=False))
            try:
                return tuple(interpreter.run_ssacfg_region(region, tuple(args[:count])))
            finally:
                interpreter.pop_scope()

        return run

    @staticmethod
    def callee(name: str) -> Callee:
        return lambda interpreter, args: tuple(interpreter.call_op(name, tuple(args)))


def _xdsl_plain(op_type: type[Operation], factory: Callable[[Any], Kernel]) -> Any:
    @impl(op_type)
    def run(
        functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        kernel = _cached_kernel(interpreter, op, lambda: factory(op))
        return results_of(kernel(*args), len(op.results))

    return run


def _xdsl_contextual(op_type: type[Operation], factory: ContextualFactory) -> Any:
    @impl(op_type)
    def run(
        functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        kernel = _cached_kernel(interpreter, op, lambda: factory(op, _XDSLEnv()))
        return tuple(kernel(interpreter, *args))

    return run


def _xdsl_return(op_type: type[Operation]) -> Any:
    @impl_terminator(op_type)
    def run(
        functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> tuple[ReturnedValues, PythonValues]:
        return ReturnedValues(args), ()

    return run


def _xdsl_branch(op_type: type[Operation], factory: Callable[[Any], Branch]) -> Any:
    @impl_terminator(op_type)
    def run(
        functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> tuple[Successor, PythonValues]:
        block, block_args = factory(op)(*args)
        return Successor(block, tuple(block_args)), ()

    return run


def _xdsl_provided(op_type: type[Operation]) -> Any:
    @impl(op_type)
    def run(
        functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        return interpreter.get_values(op.results)

    return run


# --- The compiler ---------------------------------------------------------------------

Frame = list[Any]
Step = Callable[[Frame], None]


def function_name(op: Operation | None) -> str:
    """The name of the func.func containing op ('?' if none)."""
    while op is not None and not isinstance(op, func.FuncOp):
        op = op.parent_op()
    return op.sym_name.data if op is not None else "?"


def _failure(op: Operation, error: Exception) -> LoweredExecutionError:
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    if isinstance(error, MemoryError):
        detail = out_of_memory(error)
    return LoweredExecutionError(f"{op.name} in @{function_name(op)} failed: {detail}", op)


@dataclass
class CompiledFunction:
    """A func.func ready to run, or an external declaration bound to Python."""

    name: str
    op: func.FuncOp
    run: Callable[..., tuple[Any, ...]] | None = None


class Program:
    """The functions of one module, each compiled on first use."""

    def __init__(
        self,
        module: ModuleOp,
        kernels: KernelTable,
        external: dict[str, Callable[..., Any]] | None = None,
    ):
        self.module = module
        self.kernels = kernels
        self.external = dict(external or {})
        self._functions: dict[str, CompiledFunction] = {}

    def function(self, name: str) -> CompiledFunction:
        """The compiled function @name."""
        compiled = self._functions.get(name)
        if compiled is not None:
            return compiled
        op = SymbolTable.lookup_symbol(self.module, name)
        if not isinstance(op, func.FuncOp):
            raise LoweredExecutionError(f"no func.func @{name} in the module")
        compiled = self._functions[name] = CompiledFunction(name, op)
        if op.is_declaration:
            compiled.run = self._external(name, len(op.function_type.outputs.data))
        else:
            compiled.run = _FunctionCompiler(self, op).compile()
        return compiled

    def _external(self, name: str, count: int) -> Callable[..., tuple[Any, ...]]:
        implementation = self.external.get(name)
        if implementation is None:

            def missing(*args: Any) -> tuple[Any, ...]:
                raise LoweredExecutionError(
                    f"@{name} is an external declaration with no implementation "
                    f"(bind one with run_lowered(..., external={{'{name}': ...}}))"
                )

            return missing
        return lambda *args: results_of(implementation(*args), count)


@dataclass
class _Block:
    """A compiled block: its argument slots, its steps and its terminator."""

    args: list[int]
    steps: list[Step]
    ops: dict[Step, Operation]
    terminator: Operation
    operands: list[int]
    branch: Branch | None


class _FunctionCompiler:
    """Compiles one func.func into steps over one frame."""

    def __init__(self, program: Program, op: func.FuncOp):
        self.program = program
        self.op = op
        self.slots: dict[SSAValue, int] = {}

    def compile(self) -> Callable[..., tuple[Any, ...]]:
        runner = self.region(self.op.body)
        slots = self.slots

        def call(*args: Any) -> tuple[Any, ...]:
            return runner([None] * len(slots), args)

        return call

    def slot(self, value: SSAValue) -> int:
        slot = self.slots.get(value)
        if slot is None:
            slot = self.slots[value] = len(self.slots)
        return slot

    # Env

    def region(self, region: Region, bound: Sequence[SSAValue] = ()) -> Runner:
        blocks = [self._block(block) for block in region.blocks]
        if not blocks:
            return lambda frame, args: ()
        blocks[0].args += [self.slot(value) for value in bound]
        if len(blocks) == 1 and blocks[0].branch is None:
            return _single_block_runner(blocks[0])
        return _multi_block_runner(
            blocks, {block: index for index, block in enumerate(region.blocks)}
        )

    def callee(self, name: str) -> Callee:
        function = self.program.function(name)
        return lambda frame, args: function.run(*args)

    # Compilation

    def _block(self, block: Block) -> _Block:
        steps: list[Step] = []
        ops: dict[Step, Operation] = {}
        table = self.program.kernels
        args = [self.slot(arg) for arg in block.args]
        terminator = block.last_op
        assert terminator is not None
        for op in block.ops:
            if op is terminator:
                break
            step = self._step(op, table)
            if step is not None:
                steps.append(step)
                ops[step] = op
        operands = [self.slot(operand) for operand in terminator.operands]
        branch = None
        if type(terminator) in table.branches:
            branch = table.branches[type(terminator)](terminator)
        elif type(terminator) not in table.returns:
            step = self._step(terminator, table)
            if step is not None:
                steps.append(step)
                ops[step] = terminator
        return _Block(args, steps, ops, terminator, operands, branch)

    def _step(self, op: Operation, table: KernelTable) -> Step | None:
        op_type = type(op)
        if op_type in table.provided:
            return None
        operands = [self.slot(operand) for operand in op.operands]
        results = [self.slot(result) for result in op.results]
        if op_type in table.plain:
            kernel = table.plain[op_type](op)
            if op_type in table.constants:
                return _constant_step(kernel(), results)
            return _plain_step(kernel, operands, results)
        if op_type in table.contextual:
            kernel = table.contextual[op_type](op, self)
            return _contextual_step(kernel, operands, results)
        raise LoweredExecutionError(
            f"{op.name} in @{function_name(op)} is not supported by the lowered interpreter", op
        )


def _constant_step(value: Any, results: list[int]) -> Step:
    (r,) = results

    def step(frame: Frame) -> None:
        frame[r] = value

    return step


def _plain_step(kernel: Kernel, operands: list[int], results: list[int]) -> Step:
    """A step calling kernel, specialised on the common arities."""
    if len(results) == 1:
        (r,) = results
        if len(operands) == 1:
            (a,) = operands

            def step1(frame: Frame) -> None:
                frame[r] = kernel(frame[a])

            return step1
        if len(operands) == 2:
            a, b = operands

            def step2(frame: Frame) -> None:
                frame[r] = kernel(frame[a], frame[b])

            return step2
        if len(operands) == 3:
            a, b, c = operands

            def step3(frame: Frame) -> None:
                frame[r] = kernel(frame[a], frame[b], frame[c])

            return step3

        def step_n(frame: Frame) -> None:
            frame[r] = kernel(*[frame[slot] for slot in operands])

        return step_n

    if not results:

        def step_none(frame: Frame) -> None:
            kernel(*[frame[slot] for slot in operands])

        return step_none

    def step_many(frame: Frame) -> None:
        values = kernel(*[frame[slot] for slot in operands])
        for slot, value in zip(results, values, strict=True):
            frame[slot] = value

    return step_many


def _contextual_step(kernel: Kernel, operands: list[int], results: list[int]) -> Step:
    def step(frame: Frame) -> None:
        values = kernel(frame, *[frame[slot] for slot in operands])
        for slot, value in zip(results, values, strict=False):
            frame[slot] = value

    return step


def _run_steps(block: _Block, frame: Frame) -> None:
    """Run the steps of block, naming the operation of a step that fails."""
    step = None
    try:
        for step in block.steps:
            step(frame)
    except (LoweredCheckError, LoweredExecutionError):
        raise
    except Exception as error:
        assert step is not None
        raise _failure(block.ops[step], error) from error


def _single_block_runner(block: _Block) -> Runner:
    """The runner of a one-block region: the hot path (a function body, a loop body, a
    linalg body), with the loop of ``_run_steps`` inlined."""
    args, steps, ops, operands = block.args, block.steps, block.ops, block.operands

    def run(frame: Frame, values: Sequence[Any]) -> tuple[Any, ...]:
        for slot, value in zip(args, values, strict=True):
            frame[slot] = value
        step = None
        try:
            for step in steps:
                step(frame)
        except (LoweredCheckError, LoweredExecutionError):
            raise
        except Exception as error:
            assert step is not None
            raise _failure(ops[step], error) from error
        return tuple([frame[slot] for slot in operands])

    return run


def _multi_block_runner(blocks: list[_Block], index: dict[Block, int]) -> Runner:
    def run(frame: Frame, values: Sequence[Any]) -> tuple[Any, ...]:
        block = blocks[0]
        while True:
            for slot, value in zip(block.args, values, strict=False):
                frame[slot] = value
            _run_steps(block, frame)
            operands = [frame[slot] for slot in block.operands]
            if block.branch is None:
                return tuple(operands)
            successor, values = block.branch(*operands)
            block = blocks[index[successor]]

    return run
