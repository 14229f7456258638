"""``relax-bind-symbolic-vars``: specialise functions for given symbolic values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ..diagnostics import Diagnostic, DiagnosticError, at
from ..ops.calls import CallOp
from ..ops.core import MakeClosureOp
from ..ops.dataflow import DataflowOp
from ..ops.functions import FunctionLike, FunctionOp, LambdaOp
from ..ops.match_cast import MatchCastOp
from ..ops.references import GlobalVarOp
from ..ops.values import PrimValueOp, ShapeOp
from ..prim_expr import IntImm, PrimExpr, Var, free_vars, to_text
from ..struct_info import definable_vars, used_vars
from ..syntax import parse_prim_expr
from ..types import StructInfoType
from .function_walk import FunctionWalk, Rollback
from .rewriting import function_named, functions, walk_ops

PASS = "relax-bind-symbolic-vars"


def parse_bindings(text: str) -> dict[str, PrimExpr]:
    """``name = expr, name = expr, ...`` (expressions in the dialect's syntax)."""
    bindings: dict[str, PrimExpr] = {}
    if not text.strip():
        return bindings
    parser = Parser(Context(), text, "bindings")
    try:
        while True:
            start = parser.pos
            name = parser.parse_identifier(" (a symbolic variable)")
            if name in bindings:
                parser.raise_error(f"{name} is bound twice", start, parser.pos)
            parser.parse_punctuation("=")
            start = parser.pos
            expr = parse_prim_expr(parser)
            if expr.kind != "int":
                parser.raise_error(f"'{to_text(expr)}' is not an integer", start, parser.pos)
            bindings[name] = expr
            if parser.parse_optional_punctuation(",") is None:
                break
        if parser._current_token.kind != MLIRTokenKind.EOF:  # pyright: ignore[reportPrivateUsage]
            parser.raise_error("expected ',' or the end of the bindings")
    except ParseError as error:
        column = error.span.start + 1
        raise DiagnosticError(
            [Diagnostic(None, f"{PASS}: invalid bindings '{text}' at column {column}: {error.msg}")]
        ) from None
    return bindings


def text_of(mapping: Mapping[str, PrimExpr]) -> str:
    return ", ".join(f"{name} = {to_text(expr)}" for name, expr in mapping.items())


def variables_by_name(function: FunctionOp) -> Counter[str]:
    """How many distinct symbolic variables of each name the function binds (in
    its parameters, its closures' parameters and ``match_cast``): a name bound
    again where the first is out of scope (another branch, another closure) is
    another variable."""
    counts: Counter[str] = Counter()
    scope: set[str] = set()

    def define(names: set[str], added: list[str]) -> None:
        new = names - scope
        counts.update(new)
        scope.update(new)
        added.extend(new)

    def visit_block(block: Block, added: list[str]) -> None:
        for op in block.ops:
            if isinstance(op, MatchCastOp):
                define(op.defined_vars(), added)
            elif isinstance(op, DataflowOp):  # its variables stay in scope after it
                visit_block(op.body.block, added)
            elif isinstance(op, LambdaOp):
                visit_function(op)
            else:
                for region in op.regions:
                    visit_scope(region.block, [])

    def visit_scope(block: Block, added: list[str]) -> None:
        visit_block(block, added)
        scope.difference_update(added)

    def visit_function(op: FunctionLike) -> None:
        added: list[str] = []
        define(definable_vars(op.param_types()), added)
        visit_scope(op.body.block, added)

    visit_function(function)
    return counts


def undefined_vars(function: FunctionOp) -> set[str]:
    """Symbolic variables the function uses but does not bind."""
    used: set[str] = set()
    types: list[object] = [p.type for p in function.params]
    types.append(function.ret_type)
    for op in walk_ops(function.body):
        types.extend(r.type for r in op.results)
        for region in op.regions:
            types.extend(a.type for a in region.block.args)
        if isinstance(op, LambdaOp):
            types.append(op.ret_type)
        elif isinstance(op, ShapeOp):
            used.update(v for d in op.dims.data for v in free_vars(d))
        elif isinstance(op, PrimValueOp):
            used |= free_vars(op.value.data)
    for sinfo in types:
        if isinstance(sinfo, StructInfoType):
            used |= used_vars(sinfo)
    return used - set(variables_by_name(function))


def specialise(
    function: FunctionOp, mapping: Mapping[str, PrimExpr], what: str, walk: FunctionWalk
) -> None:
    """Run ``walk`` (substituting ``mapping``) on the function; an operation it
    makes invalid, or a variable it leaves unbound, is an error (the function is
    then left as it was)."""
    try:
        walk.run()
    except Rollback as failure:
        raise DiagnosticError([at(failure.op, f"{what}: {failure.message}")]) from None
    if unbound := undefined_vars(function):
        error = at(function, f"{what}: symbolic variable {sorted(unbound)[0]} is no longer bound")
        walk.restore()
        raise DiagnosticError([error])


def referenced_function(op: Operation) -> str | None:
    """The global function an operation calls or refers to, if any."""
    if isinstance(op, GlobalVarOp | MakeClosureOp):
        return op.function.root_reference.data
    if isinstance(op, CallOp):
        return op.callee_name
    return None


def check_references(module: ModuleOp, names: set[str], what: str) -> None:
    """The calls and references of the specialised functions must still hold."""
    if not names:
        return
    for op in module.walk():
        if (name := referenced_function(op)) in names:
            try:
                op.verify_()
            except VerifyException as error:
                raise DiagnosticError(
                    [at(op, f"{what}: @{name} no longer fits this use: {error}")]
                ) from None


def bind_symbolic_vars(
    module: ModuleOp,
    mapping: Mapping[str | Var, PrimExpr | int],
    func_name: str | None = None,
) -> None:
    """Replace symbolic variables (by name, or as ``Var``) by the given values
    in the function ``func_name``, or in every function that binds them; a name
    no function binds is ignored (so that a second run changes nothing). A name
    denoting several variables of a function (bound in two branches or two
    closures) is an error, as in TVM."""
    bindings: dict[str, PrimExpr] = {}
    for key, value in mapping.items():
        name = key.name if isinstance(key, Var) else key
        if name in bindings:
            raise DiagnosticError([Diagnostic(None, f"{PASS}: {name} is bound twice")])
        bindings[name] = IntImm(value) if isinstance(value, int) else value
    if func_name is not None:
        function = function_named(module, func_name)
        if function is None:
            raise DiagnosticError([Diagnostic(None, f"{PASS}: no function @{func_name}")])
        targets = [function]
    else:
        targets = functions(module)
    done: list[FunctionWalk] = []
    try:
        for function in targets:
            counts = variables_by_name(function)
            name = function.sym_name.data
            local = {k: v for k, v in bindings.items() if k in counts}
            if ambiguous := sorted(k for k in local if counts[k] > 1):
                message = (
                    f"{PASS}: @{name} binds {counts[ambiguous[0]]} different symbolic "
                    f"variables named {ambiguous[0]} (in different scopes)"
                )
                raise DiagnosticError([at(function, message)])
            if local:
                walk = FunctionWalk(function, True, local)
                specialise(function, local, f"{PASS} @{name} with {text_of(local)}", walk)
                done.append(walk)
        check_references(module, {w.function.sym_name.data for w in done}, PASS)
    except DiagnosticError:
        for walk in done:  # leave the module as it was
            walk.restore()
        raise


@dataclass(frozen=True)
class BindSymbolicVarsPass(ModulePass):
    """Specialise functions for given values of their symbolic variables: every
    occurrence (parameter and return types, binding types, shape and prim value
    literals, ``match_cast`` targets) is replaced, then the bindings are
    re-inferred. ``bindings`` is ``"n = 4, m = n * 2"`` (values may use other
    symbolic variables of the function); ``func`` restricts the pass to one
    function, else every function binding one of the names is specialised
    (names no function binds are ignored). A name must not denote two variables
    of a function (bound in different scopes)."""

    name = PASS

    bindings: str = ""
    func: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        mapping = parse_bindings(self.bindings)
        if mapping:
            bind_symbolic_vars(op, mapping, self.func or None)
