"""``relax-apply-patterns``: where user patterns come from (Python, PDL), the
Python API, the errors a user can cause, and results kept on the reference
interpreter."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from operator_harness import load
from pass_harness import assert_same_results
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import PassFailedException

from relax_dialect.builder import Builder, call
from relax_dialect.canonicalization import algebra
from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends import default_context
from relax_dialect.ops.binary import AddOp
from relax_dialect.passes.apply_patterns import ApplyPatternsPass, apply_patterns, load_patterns
from relax_dialect.types import TensorType
from relax_dialect.well_formed import check_well_formed

INPUTS = Path(__file__).resolve().parents[1] / "filecheck" / "passes" / "Inputs"
USER = str(INPUTS / "apply_patterns.py")
PDL = str(INPUTS / "pdl_patterns.mlir")

PROGRAM = """
relax.function @main(%x: !relax.tensor<[2, 3], f32>, %i: !relax.tensor<[3], i32>) -> !relax.tuple<tensor<[3, 2], f32>, tensor<[3], i32>> {
  %y, %j = relax.dataflow {
    %a = relax.add %x, %x
    %r = relax.nn.relu %a
    %r2 = relax.nn.relu %r
    %t = relax.permute_dims %r2 {axes = [1, 0]}
    %t2 = relax.permute_dims %t {axes = [1, 0]}
    %b = relax.add %t2, %x
    %p = relax.permute_dims %b {axes = [1, 0]}
    %j = relax.add %i, %i
    relax.output %p, %j
  }
  %out = relax.tuple(%y, %j)
  relax.return %out
}
"""
F32_ADDS = PROGRAM.replace("relax.add %i, %i", "relax.multiply %i, %i")
"""``PROGRAM`` whose only ``x + x`` is f32, as the PDL pattern's constant."""
INPUT_VALUES = (
    np.array([[-1.5, 0.0, 2.0], [np.nan, -0.0, np.inf]], "float32"),
    np.array([-3, 7, 2**30], "int32"),
)


def names(module: ModuleOp) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("relax.") and op.results]


def test_python_patterns_keep_results() -> None:
    after = assert_same_results(
        load(PROGRAM), f'relax-apply-patterns{{patterns="{USER}"}}', *INPUT_VALUES
    )
    found = names(after)
    assert found.count("relax.multiply") == 2 and found.count("relax.nn.relu") == 1
    assert found.count("relax.add") == 1


def test_pdl_patterns_keep_results() -> None:
    after = assert_same_results(
        load(F32_ADDS), f'relax-apply-patterns{{patterns="{PDL}"}}', *INPUT_VALUES
    )
    found = names(after)
    assert found.count("relax.multiply") == 2 and found.count("relax.permute_dims") == 1


def test_python_and_pdl_patterns_together() -> None:
    spec = f'relax-apply-patterns{{patterns="{PDL}","{USER}"}}'
    found = names(assert_same_results(load(F32_ADDS), spec, *INPUT_VALUES))
    assert found.count("relax.nn.relu") == 1 and found.count("relax.permute_dims") == 1


def test_load_patterns_forms(tmp_path: Path) -> None:
    assert [type(p).__name__ for p in load_patterns(USER)] == ["AddSelf", "ReluOfRelu"]
    assert [type(p).__name__ for p in load_patterns(f"{USER}:BROKEN")] == ["Broken"]
    assert [type(p).__name__ for p in load_patterns(f"{USER}:RAISING")] == ["Raising"]
    assert load_patterns("relax_dialect.canonicalization.algebra") == list(algebra.PATTERNS)
    source = tmp_path / "by_name.py"
    source.write_text(
        "from relax_dialect.canonicalization.algebra import AddZero, MultiplyByOne\n"
        "NAMED = {'one': MultiplyByOne(), 'zero': AddZero()}\n"
    )
    assert [type(p).__name__ for p in load_patterns(f"{source}:NAMED")] == [
        "MultiplyByOne",
        "AddZero",
    ]
    assert [type(p).__name__ for p in load_patterns(PDL)] == ["PDLRewritePattern"] * 2
    assert len(load_patterns(PDL, default_context())) == 2


@pytest.mark.parametrize(
    ("text", "attr", "message"),
    [
        ("PATTERNS = (", "", "cannot load"),  # a syntax error
        ("raise RuntimeError('no')\n", "", "cannot load .*: RuntimeError: no"),
        ("import no_such_module\n", "", "No module named 'no_such_module'"),
        ("X = 1\n", "", "defines no PATTERNS"),
        ("PATTERNS = [3]\n", "", "holds 3, not a RewritePattern"),
        ("PATTERNS = 'AddSelf'\n", "", "not a RewritePattern"),
        (
            "from relax_dialect.canonicalization.algebra import AddZero\nONE = AddZero\n",
            ":ONE",
            r"a class: give an instance",
        ),
    ],
)
def test_bad_python_patterns(tmp_path: Path, text: str, attr: str, message: str) -> None:
    source = tmp_path / "bad_patterns.py"
    source.write_text(text)
    with pytest.raises(PassFailedException, match=f"relax-apply-patterns: .*{message}"):
        load_patterns(f"{source}{attr}")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "pdl.pattern @p : benefit(1) {\n  %x = pdl.opernd\n}\n",
            r"bad\.mlir:[0-9]+:[0-9]+: Operation pdl.opernd is not registered",
        ),
        ("builtin.module {}\n", "holds no pdl.pattern"),
    ],
)
def test_bad_pdl_patterns(tmp_path: Path, text: str, message: str) -> None:
    source = tmp_path / "bad.mlir"
    source.write_text(text)
    with pytest.raises(PassFailedException, match=message):
        load_patterns(str(source))
    with pytest.raises(PassFailedException, match="cannot read"):
        load_patterns(str(tmp_path / "missing.pdl"))
    with pytest.raises(PassFailedException, match="cannot load"):
        load_patterns(str(tmp_path / "missing.py"))
    with pytest.raises(PassFailedException, match="cannot load no_such_module"):
        load_patterns("no_such_module:PATTERNS")


def built() -> ModuleOp:
    bb = Builder()
    with bb.function("main", {"x": TensorType(["n", 4], "f32")}) as main:
        (x,) = main.params
        with bb.dataflow():
            doubled = bb.emit(call("relax.add", x, x), "doubled")
            out = bb.emit_output(call("relax.add", doubled, x), "out")
        bb.emit_func_output(out)
    return bb.module


def test_python_api_on_built_ir() -> None:
    module = built()
    patterns = load_patterns(USER)
    assert apply_patterns(module, patterns) is True
    assert check_well_formed(module) == []
    assert names(module) == ["relax.dataflow", "relax.constant", "relax.multiply", "relax.add"]
    assert apply_patterns(module, patterns) is False
    assert apply_patterns(module, []) is False


def test_unused_pure_bindings_go_as_in_canonicalize() -> None:
    module = load(PROGRAM.replace("    %a = ", "    %dead = relax.exp %x\n    %a = "))
    assert "relax.exp" in names(module)
    apply_patterns(module, load_patterns(USER))
    assert "relax.exp" not in names(module)


def test_dataflow_blocks_stay_in_normal_form() -> None:
    module = load(
        """
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %a = relax.dataflow {
    %p = relax.add %x, %x
    relax.output %p
  }
  %dead = relax.exp %x
  %b = relax.dataflow {
    %q = relax.nn.relu %a
    relax.output %q
  }
  relax.return %b
}
"""
    )
    apply_patterns(module, load_patterns(USER))
    assert check_well_formed(module) == []
    assert names(module) == ["relax.dataflow", "relax.constant", "relax.multiply", "relax.nn.relu"]


def test_no_patterns_change_nothing() -> None:
    module = load(PROGRAM)
    before = str(module)
    ApplyPatternsPass().apply(default_context(), module)
    assert str(module) == before


class Failing(RewritePattern):
    """Fails on additions."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, AddOp):
            raise KeyError("missing")


def test_a_failing_pattern_is_located() -> None:
    module = load(PROGRAM)
    with pytest.raises(DiagnosticError) as raised:
        apply_patterns(module, [Failing()])
    (diagnostic,) = raised.value.diagnostics
    assert diagnostic.location is not None and diagnostic.location.line == 4
    assert diagnostic.message == (
        "relax-apply-patterns: Failing failed on relax.add: KeyError: 'missing'"
    )


def test_a_failing_pdl_pattern_names_itself(tmp_path: Path) -> None:
    source = tmp_path / "unknown_op.mlir"
    source.write_text(Path(PDL).read_text().replace('"relax.multiply"', '"relax.multiplie"'))
    with pytest.raises(DiagnosticError, match=r"PDL pattern @add_self failed on relax\.add"):
        apply_patterns(load(PROGRAM), load_patterns(str(source)))
