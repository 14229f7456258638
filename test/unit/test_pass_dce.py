"""``relax-dce``: the ``entry-functions`` option, and results kept on the interpreter."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from pass_harness import apply, assert_same_results
from xdsl.context import Context
from xdsl.utils.exceptions import PassFailedException

from relax_dialect.analysis.call_graph import function_named
from relax_dialect.passes.dce import DeadCodeEliminationPass

V4 = "!relax.tensor<[4], f32>"

FUNCTIONS = f"""
relax.function @main(%x: {V4}) -> {V4} {{
  relax.return %x
}}
relax.function private @foo(%x: {V4}) -> {V4} {{
  %y = relax.call @bar(%x) : {V4}
  relax.return %y
}}
relax.function private @bar(%x: {V4}) -> {V4} {{
  relax.return %x
}}
relax.function private @unused(%x: {V4}) -> {V4} {{
  relax.return %x
}}
"""


def names(spec: str) -> list[str]:
    return [f.sym_name.data for f in apply(load(FUNCTIONS), spec).body.block.ops]  # pyright: ignore


def test_entry_functions_are_roots() -> None:
    """TVM's test_unused_relax_func_custom_entry_func: what an entry reaches stays."""
    assert names("relax-dce") == ["main"]
    assert names("relax-dce{entry-functions=foo}") == ["main", "foo", "bar"]
    assert names("relax-dce{entry-functions=foo,unused}") == ["main", "foo", "bar", "unused"]


def test_entry_functions_from_python() -> None:
    module = load(FUNCTIONS)
    DeadCodeEliminationPass(entry_functions=("bar",)).apply(Context(), module)
    assert function_named(module, "bar") is not None
    assert function_named(module, "foo") is None


def test_unknown_entry_function() -> None:
    with pytest.raises(PassFailedException, match="entry function @nope is not defined"):
        DeadCodeEliminationPass(entry_functions=("nope",)).apply(Context(), load(FUNCTIONS))


def test_results_and_effects_kept() -> None:
    """Dead pure code goes (an unused `if`, a closure, a call, a dataflow output); a
    run-time check stays."""
    module = load(f"""
relax.function @main(%x: {V4}, %c: !relax.tensor<[], bool>) -> {V4} {{
  %d = relax.if %c : {V4} {{
    %e = relax.exp %x
    relax.yield %e
  }} else {{
    relax.yield %x
  }}
  %f = relax.lambda (%y: {V4}) -> {V4} {{
    %z = relax.add %y, %x
    relax.return %z
  }}
  %g = relax.call @helper(%x) : {V4}
  %h = relax.dataflow {{
    %a = relax.multiply %x, %x
    %b = relax.add %a, %x
    relax.output %a
  }}
  %m = relax.match_cast %h : !relax.tensor<[4], f32>
  %r = relax.subtract %h, %x
  relax.return %r
}}
relax.function private @helper(%x: {V4}) -> {V4} {{
  relax.return %x
}}
""")
    x = np.arange(4, dtype="float32")
    after = assert_same_results(module, "relax-dce", x, np.array(True))
    assert [op.name for op in after.body.block.ops] == ["relax.function"]
    main = function_named(after, "main")
    assert main is not None
    assert [op.name for op in main.body.block.ops] == [
        "relax.dataflow",
        "relax.match_cast",
        "relax.subtract",
        "relax.return",
    ]
