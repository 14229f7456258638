"""``relax.alias``, a variable bound to another variable (TVMScript's ``y = x``):
what the TVMScript reader makes of it (TVM 0.25's rules), the builder, the
reference interpreter, and the passes that remove or merge it."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.builder import Builder
from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends import default_context
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.memo_printer import print_module
from relax_dialect.ops.alias import AliasOp
from relax_dialect.passes.cse import EliminateCommonSubexprPass
from relax_dialect.passes.dce import DeadCodeEliminationPass
from relax_dialect.types import TensorType
from relax_dialect.well_formed import check_well_formed


def aliases(module: ModuleOp) -> dict[str, str]:
    return {
        op.result.name_hint: str(op.result.type) for op in module.walk() if isinstance(op, AliasOp)
    }  # pyright: ignore


def tvmscript(body: str, params: str = 'x: R.Tensor(ndim=2, dtype="float32")') -> ModuleOp:
    source = f"from tvm.script import relax as R\n@R.function\ndef main({params}):\n{body}"
    return parse_tvmscript(source, "input.py", ctx=default_context())


def test_the_binding_keeps_its_name_and_takes_the_value_type() -> None:
    """TVM 0.25 checks the annotation of ``y = x`` and gives ``y`` the StructInfo
    of ``x``, whether the annotation is weaker or more specific."""
    module = tvmscript(
        "    same = x\n"
        "    weak: R.Object = x\n"
        '    specific: R.Tensor((3, 4), "float32") = weak\n'
        "    return specific\n"
    )
    assert aliases(module) == dict.fromkeys(
        ["same", "weak", "specific"], "!relax.tensor<ndim = 2, f32>"
    )
    assert not check_well_formed(module)


def test_a_contradicting_annotation_is_an_error_at_it() -> None:
    with pytest.raises(
        DiagnosticError,
        match=r"input.py:4:8: error: binding: result type tensor<\[3, 5\], f32> contradicts",
    ):
        tvmscript(
            '    y: R.Tensor((3, 5), "float32") = x\n    return y\n',
            'x: R.Tensor((3, 4), "float32")',
        )


def test_an_alias_of_a_dataflow_output_after_its_block_names_the_output() -> None:
    bb = Builder()
    with bb.function("main", {"x": TensorType([2], "f32")}) as main:
        (x,) = main.params
        with bb.dataflow():
            inner = bb.emit_output(bb.emit_operator("relax.exp", [x]), "e")
        bb.emit_func_output(bb.alias(inner, "y"))
    module = bb.module
    assert not check_well_formed(module)
    assert "%y = relax.alias %e :" in print_module(module)


PROGRAM = """
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %weak = relax.alias %x : !relax.object
  %back = relax.match_cast %weak : !relax.tensor<[n], f32>
  %a = relax.alias %back
  %b = relax.alias %back
  %unused = relax.alias %x
  %r = relax.add %a, %b
  relax.return %r
}
"""


def context() -> Context:
    return default_context()


def test_the_interpreter_gives_the_value() -> None:
    x = np.array([1.0, 2.0], "float32")
    np.testing.assert_array_equal(run(parse_module(context(), PROGRAM, "p.mlir"), "main", x), 2 * x)


def test_dce_removes_an_unused_alias() -> None:
    module = parse_module(context(), PROGRAM, "p.mlir")
    DeadCodeEliminationPass().apply(context(), module)
    assert set(aliases(module)) == {"weak", "a", "b"}


@pytest.mark.parametrize("call_only", [False, True])
def test_cse_merges_aliases_of_one_value_unless_call_only(call_only: bool) -> None:
    """TVM's ``EliminateCommonSubexpr`` merges two ``y = x`` (not with ``call_only``)."""
    module = parse_module(context(), PROGRAM, "p.mlir")
    EliminateCommonSubexprPass(call_only=call_only).apply(context(), module)
    assert ("b" in aliases(module)) == call_only
    assert not check_well_formed(module)
