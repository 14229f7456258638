"""``relax-bind-symbolic-vars``: specialise functions for given symbolic values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ..analysis.call_graph import function_named, functions, referenced_function
from ..analysis.symbolic_vars import symbolic_scopes
from ..diagnostics import Diagnostic, DiagnosticError, at
from ..prim_expr import IntImm, PrimExpr, Var, substitution_text, to_text
from ..rewriting.function_walk import FunctionWalk, specialise
from ..syntax import parse_prim_expr

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
            counts = symbolic_scopes(function).variables_by_name()
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
                specialise(walk, f"{PASS} @{name} with {substitution_text(local)}")
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
