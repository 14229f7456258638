"""``relax-lambda-lift``: lift every ``relax.lambda`` to a private global function.

TVM's ``LambdaLift`` (``src/relax/transform/lambda_lift.cc``). Lambdas are
lifted innermost first. The lifted function takes the values the lambda
captures, then its own parameters; a capture of symbolic variables that its
parameters do not bind becomes one more ``!relax.shape<[n, ...]>`` parameter.
Where the lambda was, a lambda that captures nothing becomes
``relax.global_var @f`` and its calls ``relax.call @f(...)``; one that
captures becomes ``relax.make_closure @f(captured...)`` (an ``object``) and its
calls ``relax.invoke_closure`` / ``relax.invoke_pure_closure`` with the type
the call had. A recursive lambda calls itself directly.

A closure's type is ``object``, so the values it flows into are retyped
(tuples, ``if``, return annotations, functions returning it, their callers...)
and a call of such a value becomes a closure invocation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from ..analysis.call_graph import functions, referenced_function
from ..analysis.effects import is_pure
from ..analysis.symbolic_vars import free_symbolic_vars, symbolic_scopes
from ..analysis.symbols import symbol_table
from ..analysis.walk import walk_ops
from ..attributes import ShapeAttr
from ..ops.base import BindingOp
from ..ops.calls import CallOp, InvokeOp, calls_purely
from ..ops.control_flow import IfOp
from ..ops.core import InvokeClosureOp, InvokePureClosureOp, MakeClosureOp
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionOp, LambdaOp
from ..ops.references import ExternFuncOp, GlobalVarOp, OpRefOp
from ..ops.values import ShapeOp
from ..rewriting.bindings import replace_binding, set_type
from ..rewriting.dataflow_blocks import merge_adjacent_dataflows, tidy_dataflow
from ..struct_info import Check, base_check, definable_vars, join, used_vars
from ..types import FuncType, ObjectType, ShapeType, StructInfoType

REFERENCES = (GlobalVarOp, ExternFuncOp, OpRefOp)
"""Bindings of global names, copied into a lifted function rather than captured
(TVM writes global variables, extern functions and operators inline)."""


def lambda_names(module: ModuleOp) -> dict[LambdaOp, str]:
    """The name of each lambda's lifted function, as TVM chooses it: the enclosing
    global function's name and the lambda's binding name (``main_inner``), else
    the whole path of binding names (``main_outer_inner``), else the first with a
    number (``main_inner_0``); never a name the module has."""
    taken = set(symbol_table(module))
    remaining: dict[LambdaOp, list[str]] = {}
    for function in functions(module):
        _locate(function.body, [function.sym_name.data], remaining)
    names: dict[LambdaOp, str] = {}

    def attempt(propose: dict[LambdaOp, str | None]) -> None:
        proposals: dict[str, LambdaOp | None] = {}
        for op, name in propose.items():
            if name is not None and name not in taken:
                proposals[name] = None if name in proposals else op
        for name, op in proposals.items():
            if op is not None:
                names[op] = name
                taken.add(name)
                del remaining[op]

    attempt({op: f"{path[0]}_{path[-1]}" for op, path in remaining.items()})
    attempt({op: "_".join(path) if len(path) > 2 else None for op, path in remaining.items()})
    counters: dict[str, int] = {}
    for op, path in remaining.items():
        base = f"{path[0]}_{path[-1]}"
        count = counters.get(base, 0)
        while f"{base}_{count}" in taken:
            count += 1
        counters[base] = count + 1
        names[op] = f"{base}_{count}"
        taken.add(names[op])
    return names


def _locate(region: Region, path: list[str], found: dict[LambdaOp, list[str]]) -> None:
    for block in region.blocks:
        for op in block.ops:
            inner = path
            if isinstance(op, LambdaOp):
                inner = [*path, op.result.name_hint or "lambda"]
                found[op] = inner
            for nested in op.regions:
                _locate(nested, inner, found)


@dataclass
class _Capture:
    """What a lambda uses from outside: values (captured), references to global
    names (copied), and each use (operation and operand index)."""

    values: list[SSAValue]
    references: list[SSAValue]
    uses: list[tuple[Operation, int]]
    symbols: set[str]


def _captures(op: LambdaOp) -> _Capture:
    defined: set[SSAValue] = set(op.body.block.args)
    found: dict[SSAValue, None] = {}
    uses: list[tuple[Operation, int]] = []
    symbols = {v for t in (*op.param_types(), op.result_info()) for v in used_vars(t)}
    symbols.update(*(free_symbolic_vars(inner) for inner in op.body.block.ops))
    for inner in walk_ops(op.body):
        for index, operand in enumerate(inner.operands):
            if operand not in defined:
                found[operand] = None
                uses.append((inner, index))
        defined.update(inner.results)
    values = [v for v in found if not isinstance(v.owner, REFERENCES)]
    references = [v for v in found if isinstance(v.owner, REFERENCES)]
    return _Capture(values, references, uses, symbols)


class _Lifter:
    """Lifts the lambdas of a module, innermost first, then retypes what closures reach."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names = lambda_names(module)
        self.lifted: list[FunctionOp] = []
        self.enclosing: dict[FunctionOp, None] = {}
        """The functions that had lambdas."""
        self.emptied: dict[Block, None] = {}
        """Blocks that lost a lambda leaving nothing in its place: a dataflow block may
        be left empty, dataflow blocks adjacent."""
        self.changed: dict[SSAValue, StructInfoType] = {}
        """Closures (``object``) where lambdas were, with the lambdas' types."""

    def run(self) -> None:
        for function in functions(self.module):
            before = len(self.lifted)
            self._block(function.body.block, function, symbolic_scopes(function).closures)
            if len(self.lifted) > before:
                self.enclosing[function] = None
        if self.lifted:
            _Retyper(self.module, self.changed).run([*self.lifted, *self.enclosing])
        plain: dict[Block, None] = {}
        for block in self.emptied:
            parent = block.parent_op()
            if isinstance(parent, DataflowOp):
                block = parent.parent_block()
                tidy_dataflow(parent)
            plain[block] = None  # pyright: ignore[reportArgumentType]
        for block in plain:
            merge_adjacent_dataflows(block)

    def _block(self, block: Block, function: FunctionOp, scopes: dict[LambdaOp, set[str]]) -> None:
        """Lift the lambdas of ``block``, innermost first; ``scopes``: the symbolic
        variables in scope where each is defined."""
        for op in list(block.ops):
            if isinstance(op, LambdaOp):
                self._block(op.body.block, function, scopes)
                self._lift(op, function, scopes[op])
            elif isinstance(op, IfOp | DataflowOp):
                for region in op.regions:
                    self._block(region.block, function, scopes)

    def _lift(self, op: LambdaOp, function: FunctionOp, scope: set[str]) -> None:
        name = self.names[op]
        capture = _captures(op)
        captured = list(capture.values)
        param_types: list[StructInfoType] = [v.type for v in captured]  # pyright: ignore
        bound = definable_vars([*param_types, *op.param_types()])
        used = capture.symbols.union(*map(used_vars, param_types))
        symbols = sorted((used & scope) - bound)
        if symbols:
            shape = ShapeOp(ShapeAttr.from_dims(symbols))
            shape.result.name_hint = "tir_vars"
            op.parent_block().insert_op_before(shape, op)  # pyright: ignore[reportOptionalMemberAccess]
            captured.append(shape.result)
            param_types.append(ShapeType(symbols))
        self_reference = op.self_reference
        region = op.detach_region(op.body)
        block = region.block
        first = 1 if self_reference is not None else 0
        params: dict[SSAValue, SSAValue] = {}
        for index, value in enumerate(captured):
            param = block.insert_arg(value.type, first + index)
            param.name_hint = value.name_hint
            params[value] = param
        for reference in capture.references:
            copy = reference.owner.clone()  # pyright: ignore[reportAttributeAccessIssue]
            _insert_first(block, copy)
            params[reference] = copy.results[0]
        for user, index in capture.uses:
            user.operands[index] = params[user.operands[index]]
        lifted = FunctionOp(name, region, op.ret_type, public=False, pure=op.pure)  # pyright: ignore
        self.module.body.block.insert_op_before(lifted, function)
        self.lifted.append(lifted)
        if self_reference is not None:
            own = [params[v] for v in captured]
            _replace_function_value(self_reference, name, own, lifted.function_type())
            block.erase_arg(self_reference)  # pyright: ignore[reportArgumentType]
        site = op.parent_block()
        assert site is not None
        value = _replace_function_value(op.result, name, captured, lifted.function_type(), op)
        if value is None:
            self.emptied[site] = None
        elif value.type != op.result.type:
            self.changed[value] = op.result.type  # pyright: ignore[reportArgumentType]
        site.erase_op(op)


def _insert_first(block: Block, op: Operation) -> None:
    if block.first_op is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, block.first_op)


def _replace_function_value(
    value: SSAValue,
    name: str,
    captured: list[SSAValue],
    function_type: FuncType,
    site: Operation | None = None,
) -> SSAValue | None:
    """Replace the uses of a lambda's value (or of its self reference) by the lifted
    function ``@name``: calls become direct calls (``captured`` first), other uses
    take ``relax.global_var @name`` or ``relax.make_closure @name(captured...)``
    made at ``site`` (at the start of the function for a self reference): the value
    made, if any."""
    for use in list(value.uses):
        user = use.operation
        if not (isinstance(user, InvokeOp) and use.index == 0):
            continue
        declared: StructInfoType = user.result.type  # pyright: ignore[reportAssignmentType]
        if captured and site is not None:
            kind = InvokePureClosureOp if function_type.is_pure else InvokeClosureOp
            new: Operation = kind(value, list(user.args), declared)
        else:
            new = CallOp(name, [*captured, *user.args], declared)
        _replace(user, new)
    if not value.uses:
        return None
    if captured:
        made: Operation = MakeClosureOp(name, captured, ObjectType())
    else:
        made = GlobalVarOp(name, function_type)
    made.results[0].name_hint = value.name_hint
    if site is not None:
        site.parent_block().insert_op_before(made, site)  # pyright: ignore[reportOptionalMemberAccess]
    else:
        _insert_first(value.owner, made)  # pyright: ignore[reportArgumentType]
    value.replace_all_uses_with(made.results[0])
    return made.results[0]


def _replace(op: Operation, new: Operation) -> None:
    new.results[0].name_hint = op.results[0].name_hint
    op.parent_block().insert_op_before(new, op)  # pyright: ignore[reportOptionalMemberAccess]
    replace_binding(op, new.results[0])


class _Retyper:
    """Retype what closures flow into, starting from the values whose type changed:
    a binding whose type its new operand types contradict takes the inferred one, a
    call whose callee or argument is now a closure (``object``) becomes a closure
    invocation, a function whose body no longer fits its return annotation takes
    the join; a function whose type changes has its callers retyped in turn."""

    def __init__(self, module: ModuleOp, changed: dict[SSAValue, StructInfoType]):
        self.module = module
        self.previous = changed
        """Each value whose type changed, with its type before the pass."""
        self.changed_functions: set[str] = set()
        self.callers: dict[str, set[FunctionOp]] | None = None

    def run(self, start: list[FunctionOp]) -> None:
        pending = dict.fromkeys(start)
        while pending:
            function = next(iter(pending))
            del pending[function]
            before = function.function_type()
            self._block(function.body.block)
            declared = function.ret_type
            if isinstance(declared, StructInfoType):
                body = function.body_type()
                if base_check(declared, body) <= Check.FAIL_RUNTIME:
                    function.ret_type = join(declared, body)
            if function.function_type() != before:
                self.changed_functions.add(function.sym_name.data)
                pending.update(dict.fromkeys(self._callers(function.sym_name.data)))

    def _callers(self, name: str) -> set[FunctionOp]:
        if self.callers is None:
            self.callers = {}
            for function in functions(self.module):
                for op in walk_ops(function.body):
                    if (callee := referenced_function(op)) is not None:
                        self.callers.setdefault(callee, set()).add(function)
        return self.callers.get(name, set())

    def _affected(self, op: Operation) -> bool:
        if any(operand in self.previous for operand in op.operands):
            return True
        if isinstance(op, IfOp):
            yields = (region.block.last_op for region in (op.then_region, op.else_region))
            return any(y is not None and y.operands[0] in self.previous for y in yields)
        return referenced_function(op) in self.changed_functions

    def _set(self, value: SSAValue, sinfo: StructInfoType) -> None:
        new = set_type(value, sinfo)
        if new is not value:
            self.previous[new] = self.previous.pop(value, value.type)  # pyright: ignore

    def _block(self, block: Block) -> None:
        for op in list(block.ops):
            for region in op.regions:
                self._block(region.block)
            if isinstance(op, DataflowOp):
                for result, value in zip(op.results, op.output_op.values, strict=True):
                    if value in self.previous:
                        self._set(result, value.type)  # pyright: ignore[reportArgumentType]
            elif isinstance(op, BindingOp) and self._affected(op):
                pure = self._purity(op)
                try:
                    inferred = op.infer_type()
                except VerifyException:
                    if not isinstance(op, CallOp | InvokeOp):
                        raise
                    _invoke_closure(op, pure)
                    continue
                if base_check(op.result_type, inferred) <= Check.FAIL_RUNTIME:  # pyright: ignore
                    self._set(op.results[0], inferred)

    def _purity(self, op: Operation) -> bool:
        """Whether a call was pure, judged by its callee's type before the pass."""
        if isinstance(op, InvokeOp) and op.callee in self.previous:
            return calls_purely(self.previous[op.callee])
        return isinstance(op, BindingOp) and is_pure(op)


def _invoke_closure(op: CallOp | InvokeOp, pure: bool) -> None:
    """Call through ``relax.invoke_closure``, which takes any callable value and
    declares its result type: for a callee or an argument that became a closure."""
    kind = InvokePureClosureOp if pure else InvokeClosureOp
    declared: StructInfoType = op.result.type  # pyright: ignore[reportAssignmentType]
    if isinstance(op, InvokeOp):
        _replace(op, kind(op.callee, list(op.args), declared))
        return
    function = GlobalVarOp(op.callee_name, op.callee_type())
    function.result.name_hint = op.callee_name
    op.parent_block().insert_op_before(function, op)  # pyright: ignore[reportOptionalMemberAccess]
    _replace(op, kind(function.result, list(op.args), declared))


def _walk_lambdas(module: ModuleOp) -> Iterator[LambdaOp]:
    for function in functions(module):
        for op in walk_ops(function.body):
            if isinstance(op, LambdaOp):
                yield op


@dataclass(frozen=True)
class LambdaLiftPass(ModulePass):
    """Lift every local function to a private global function: a closure becomes
    ``relax.make_closure`` and its calls ``relax.invoke_closure``, a function
    capturing nothing becomes a global function called directly."""

    name = "relax-lambda-lift"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if next(_walk_lambdas(op), None) is not None:
            _Lifter(op).run()
