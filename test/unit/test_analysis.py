"""The module queries of ``relax_dialect.analysis``: symbols, call graph, symbolic
variables and effects."""

from __future__ import annotations

import subprocess
import sys

from operator_harness import load
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp

from relax_dialect.analysis.call_graph import (
    callees_first,
    function_named,
    functions_callees_first,
    recursive_groups,
    symbol_uses,
)
from relax_dialect.analysis.effects import (
    in_place_outputs,
    is_pure,
    writes_in_place,
    written_in_place,
)
from relax_dialect.analysis.symbolic_vars import (
    free_symbolic_vars,
    symbolic_names,
    symbolic_scopes,
    type_names,
    undefined_vars,
)
from relax_dialect.analysis.symbols import lookup_symbol, symbol_table
from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.ops.calls import CallOp
from relax_dialect.ops.functions import FunctionOp, LambdaOp
from relax_dialect.ops.match_cast import MatchCastOp
from relax_dialect.prim_expr import Var
from relax_dialect.types import FuncType, TensorType

T = "!relax.tensor<[n], f32>"

CALLS = f"""
relax.function @main(%x: {T}) -> {T} {{
  %y = relax.call @even(%x) : {T}
  %f = relax.make_closure @leaf(%x) : !relax.object
  relax.return %y
}}
relax.function private @even(%x: {T}) -> {T} {{
  %y = relax.call @odd(%x) : {T}
  relax.return %y
}}
relax.function private @odd(%x: {T}) -> {T} {{
  %f = relax.global_var @even : !relax.func<({T}) -> {T}>
  relax.return %x
}}
relax.function private @leaf(%x: {T}) -> {T} {{
  relax.return %x
}}
"""


def parse(text: str) -> ModuleOp:
    """``text`` parsed, not checked."""
    ctx = Context()
    for dialect in (Builtin, Relax):
        ctx.load_dialect(dialect)
    return parse_module(ctx, text, "test.mlir")


def test_symbols_without_operation_classes() -> None:
    """The operations' verifiers look symbols up: ``analysis.symbols`` must not
    import them (nor the rest of ``analysis``; ``names``, which the package installs
    first, imports only xDSL)."""
    allowed = ("relax_dialect.analysis", "relax_dialect.analysis.symbols", "relax_dialect.names")
    code = (
        "import sys, relax_dialect.analysis.symbols\n"
        "assert not [m for m in sys.modules if m.startswith('relax_dialect.')\n"
        f"            and m not in {allowed}]"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_lookup_and_table() -> None:
    module = load(CALLS)
    table = symbol_table(module)
    assert list(table) == ["main", "even", "odd", "leaf"]
    inner = next(op for op in module.walk() if isinstance(op, CallOp))
    assert lookup_symbol(inner, "leaf") is table["leaf"]
    assert lookup_symbol(inner, "nope") is None
    assert function_named(module, "odd") is table["odd"]


def test_call_graph() -> None:
    module = load(CALLS)
    uses = symbol_uses(module)
    assert [sorted(c) for c in callees_first(uses)] == [["even", "odd"], ["leaf"], ["main"]]
    assert uses["even"].escapes and not uses["leaf"].calls and uses["leaf"].escapes
    assert [f.sym_name.data for f in functions_callees_first(module)] == [
        "even",
        "odd",
        "leaf",
        "main",
    ]
    groups = recursive_groups(module)
    assert sorted(groups) == ["even", "odd"] and groups["even"] == {"even", "odd"}


def test_free_variables_and_names() -> None:
    """A function type binds its own variables: free for scoping, names for renaming
    (``m`` is bound nowhere: the function is not well formed)."""
    k, m = Var("k"), Var("m")
    sinfo = FuncType([TensorType([k], "f32")], TensorType([k, m], "f32"))
    assert type_names(sinfo) == ("k", "m")
    module = parse("""
relax.function @main(%x: !relax.tensor<[n], f32>, %f: !relax.func<(tensor<[k], f32>) -> tensor<[k, m], f32>>) -> !relax.shape<[n, m]> {
  %s = relax.shape [n, m] : !relax.shape<[n, m]>
  relax.return %s
}
""")
    function = function_named(module, "main")
    assert function is not None
    assert free_symbolic_vars(function) == {"n", "m"}
    assert symbolic_names([function]) == ["n", "m", "k"]
    assert undefined_vars(function) == {"m"}


def test_scopes() -> None:
    """A branch's and a closure's variables go out of scope at their end, a dataflow
    block's stay: ``m`` bound in both branches is two variables."""
    module = load("""
relax.function @main(%x: !relax.tensor<[n], f32>, %c: !relax.prim<bool>) -> !relax.object {
  %r = relax.if %c : !relax.object {
    %a = relax.match_cast %x : !relax.tensor<[m], f32>
    relax.yield %a
  } else {
    %b = relax.match_cast %x : !relax.tensor<[m], f32>
    relax.yield %b
  }
  %d = relax.dataflow {
    %e = relax.match_cast %x : !relax.tensor<[p], f32>
    relax.output %e
  }
  %f = relax.lambda (%y: !relax.tensor<[q], f32>) -> !relax.tensor<[q], f32> {
    %g = relax.match_cast %y : !relax.tensor<[p], f32>
    relax.return %y
  }
  relax.return %r
}
""")
    function = function_named(module, "main")
    assert function is not None
    scopes = symbolic_scopes(function)
    assert scopes.variables_by_name() == {"n": 1, "m": 2, "p": 1, "q": 1}
    casts = [op for op in module.walk() if isinstance(op, MatchCastOp)]
    assert [scopes.binds[cast] for cast in casts] == [{"m"}, {"m"}, {"p"}, set()]
    lambda_op = next(op for op in module.walk() if isinstance(op, LambdaOp))
    assert scopes.closures[lambda_op] == {"n", "p"}
    assert scopes.binds[function] == {"n"}


def test_effects() -> None:
    module = load(f"""
relax.function impure @main(%x: {T}) -> {T} {{
  %p = relax.call_packed "log"(%x) : !relax.object
  %y = relax.call_inplace_packed "relu_"(%x) {{inplace_indices = [0]}} : {T}
  %z = relax.call @effects(%x) : {T}
  %w = relax.call @pure(%x) : {T}
  relax.return %y
}}
relax.function private impure @effects(%x: {T}) -> {T} {{
  relax.return %x
}}
relax.function private @pure(%x: {T}) -> {T} {{
  relax.return %x
}}
""")
    main = function_named(module, "main")
    assert isinstance(main, FunctionOp)
    packed, in_place, call, pure_call, _ = main.body.block.ops
    assert not is_pure(packed) and is_pure(in_place) and not is_pure(call) and is_pure(pure_call)
    assert writes_in_place(in_place) and not writes_in_place(call)
    assert written_in_place(main.params[0]) and not written_in_place(in_place.results[0])
    assert in_place_outputs(in_place, 1) == [0] and in_place_outputs(call, 2) == [-1, -1]
