"""``relax-bind-symbolic-vars``: the Python API (names or ``Var``, one function
or all), the option syntax, errors, and run-time agreement."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.context import Context

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.interpreter import run
from relax_dialect.passes.bind_symbolic_vars import (
    BindSymbolicVarsPass,
    bind_symbolic_vars,
    parse_bindings,
)
from relax_dialect.prim_expr import IntImm, Var
from relax_dialect.well_formed import check_well_formed

TWO = """
relax.function @main_1(%x: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  relax.return %x
}
relax.function @main_2(%x: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  relax.return %x
}
"""


def signatures(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if "relax.function" in line]


def test_by_name_in_every_function() -> None:
    module = load(TWO)
    bind_symbolic_vars(module, {"n": 16})
    assert signatures(str(module)) == [
        "relax.function @main_1(%x: !relax.tensor<[m, 16], f32>) -> !relax.tensor<[m, 16], f32> {",
        "relax.function @main_2(%x: !relax.tensor<[m, 16], f32>) -> !relax.tensor<[m, 16], f32> {",
    ]


def test_by_var_in_one_function() -> None:
    # TVM's test_bind_single_variable_by_identity: a variable is a name within
    # a function here, so the function is named.
    module = load(TWO)
    bind_symbolic_vars(module, {Var("n"): IntImm(16)}, "main_1")
    assert signatures(str(module))[1].startswith("relax.function @main_2(%x: !relax.tensor<[m, n]")
    assert "[m, 16]" in signatures(str(module))[0]


def test_option_syntax() -> None:
    assert parse_bindings(" n = 4, m = n * 2 ") == {"n": IntImm(4), "m": Var("n") * 2}
    assert parse_bindings("") == {}
    for text, message in (
        ("n = 4, n = 5", "n is bound twice"),
        ("n = 4 m = 5", "expected ',' or the end of the bindings"),
        ("n = 1.5", "'1.5' is not an integer"),
    ):
        with pytest.raises(DiagnosticError, match=message):
            parse_bindings(text)


def test_unknown_names_are_ignored_and_a_second_run_changes_nothing() -> None:
    module = load(TWO)
    pass_ = BindSymbolicVarsPass(bindings="n = 16, q = 2")
    pass_.apply(Context(), module)
    once = str(module)
    pass_.apply(Context(), module)
    assert str(module) == once


@pytest.mark.parametrize(
    ("text", "bindings", "message"),
    [
        (
            # two closures each binding their own n
            """
relax.function @main(%x: !relax.tensor<[4], f32>) -> !relax.object {
  %f = relax.lambda (%a: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
    relax.return %a
  }
  %g = relax.lambda (%b: !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 2], f32> {
    relax.return %b
  }
  %t = relax.tuple(%f, %g) : !relax.object
  relax.return %t
}
""",
            {"n": 3},
            "@main binds 2 different symbolic variables named n",
        ),
        (
            TWO,
            {"n": Var("q") + 1},
            "symbolic variable q is no longer bound",
        ),
        (TWO, {"n": 1, Var("n"): 2}, "n is bound twice"),
        (
            # the caller no longer fits @callee, which another function precedes
            """
relax.function @first(%x: !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32> {
  relax.return %x
}
relax.function @callee(%x: !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32> {
  relax.return %x
}
relax.function @caller(%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %r = relax.call @callee(%y) : !relax.tensor<[4], f32>
  relax.return %r
}
""",
            {"k": 3},
            "@callee no longer fits this use",
        ),
    ],
)
def test_errors_leave_the_module_unchanged(
    text: str, bindings: dict[str | Var, object], message: str
) -> None:
    module = load(text)
    before = str(module)
    with pytest.raises(DiagnosticError, match=message):
        bind_symbolic_vars(module, bindings)  # pyright: ignore[reportArgumentType]
    assert str(module) == before


def test_no_such_function() -> None:
    with pytest.raises(DiagnosticError, match="no function @other"):
        bind_symbolic_vars(load(TWO), {"n": 1}, "other")


def test_specialised_function_computes_the_same() -> None:
    text = """
relax.function @main(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<ndim = 1, f32> {
  %s = relax.shape [n * m]
  %y = relax.reshape %x, %s
  %t = relax.permute_dims %x
  %u = relax.reshape %t, %s
  %z = relax.add %y, %u
  relax.return %z
}
"""
    module = load(text)
    specialised = module.clone()
    bind_symbolic_vars(specialised, {"n": 2, "m": 3})
    assert check_well_formed(specialised) == []
    assert "%z = relax.add %y, %u : !relax.tensor<[6], f32>" in str(specialised)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_array_equal(run(specialised, "main", x), run(module, "main", x))
