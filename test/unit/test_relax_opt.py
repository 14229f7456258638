"""The ``relax-opt`` command line: exit statuses, diagnostics, flags."""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from installed_commands import start
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from relax_dialect.diagnostics import Diagnostic
from relax_dialect.frontends.mlir import parse_module, too_deep_at
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.passes import pipelines
from relax_dialect.passes.pipelines import O2Pass
from relax_dialect.recheck import recheck_well_formed
from relax_dialect.recursion import MAX_NESTING
from relax_xdsl.tools.relax_opt import RelaxOptMain, main

VALID = """\
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.add %x, %x : !relax.tensor<[n, 4], f32>
  relax.return %y
}
"""
LOCATED = re.compile(r"^(\S+):(\d+):(\d+): error: ")


def run(
    capsys: pytest.CaptureFixture[str], *args: str, stdin: str | bytes | None = None
) -> tuple[int, str, str]:
    if stdin is not None:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        status = main(list(args))
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, text: str, name: str = "input.mlir") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_valid_input_prints_the_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, write(tmp_path, VALID))
    assert status == 0 and err == ""
    assert "%y = relax.add %x, %x : !relax.tensor<[n, 4], f32>" in out


@pytest.mark.parametrize(
    "text", ["", "// nothing but a comment\n", "#map = affine_map<(d0) -> (d0)>\n"]
)
def test_input_without_operations_is_an_empty_module(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, write(tmp_path, text), "-p", "relax-o2")
    assert (status, out, err) == (0, "builtin.module {\n}\n\n", "")


@pytest.mark.parametrize("text", ["#map = affine_map<(d0) -> (d0", "#map = "])
def test_an_unfinished_alias_is_no_empty_module(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, write(tmp_path, text))
    assert status == 1 and LOCATED.match(err), err


def test_stdin_and_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.mlir"
    status, out, _ = run(capsys, "-", "-o", str(target), stdin=VALID)
    assert status == 0 and out == ""
    assert "relax.function @main" in target.read_text()


def test_tvmscript_on_stdin_is_recognised(capsys: pytest.CaptureFixture[str]) -> None:
    script = "# a model\nfrom tvm.script import relax as R\n\n@R.function\ndef main():\n    return R.tuple()\n"
    status, out, err = run(capsys, "-", stdin=script)
    assert status == 0 and "relax.function @main" in out, err
    status, out, _ = run(capsys, "-", "--emit", "tvmscript", stdin=VALID)
    assert status == 0 and "@R.function" in out


def test_tvmscript_with_a_docstring_on_stdin_is_recognised(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``cat examples/mlp.py | relax-opt -``: the module docstring comes first."""
    example = Path(__file__).parents[2] / "examples" / "mlp.py"
    status, out, err = run(capsys, "-", stdin=example.read_text())
    assert (status, err) == (0, "")
    assert out == run(capsys, str(example))[1]


def test_generic_form(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, write(tmp_path, VALID), "--print-op-generic")
    assert status == 0
    assert '"relax.add"(%x, %x)' in out


def test_parse_error_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, VALID.replace("relax.add %x,", "relax.add %x;"))
    status, out, err = run(capsys, path)
    assert status == 1 and out == ""
    first = err.splitlines()[0]
    assert LOCATED.match(first), first
    assert first.startswith(f"{path}:2:")
    assert "Traceback" not in err


def test_ill_formed_program_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, VALID.replace("relax.return %y", "relax.return %z"))
    status, _, err = run(capsys, path)
    assert status == 1
    assert err.splitlines()[0].startswith(f"{path}:3:16: error: use of undefined value %z")


FORWARD_USE = """\
func.func @f() -> i32 {
  cf.br ^bb2
^bb1:
  func.return %v : i32
^bb2:
  %v = arith.constant 1 : i32
  cf.br ^bb1
}
"""


def test_undefined_value_in_generic_syntax_is_located_at_its_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, write(tmp_path, FORWARD_USE))
    assert status == 0 and "func.return %v : i32" in out
    path = write(tmp_path, FORWARD_USE.replace("%v = arith", "%w = arith"))
    status, _, err = run(capsys, path)
    assert status == 1
    assert err.splitlines()[0].startswith(f"{path}:4:15: error: use of undefined value %v")


def test_later_parse_error_wins_over_a_pending_forward_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    undefined = FORWARD_USE.replace("%v = arith", "%w = arith")
    path = write(tmp_path, undefined + "func.func @g( {\n")
    status, _, err = run(capsys, path)
    assert status == 1
    assert err.splitlines()[0].startswith(f"{path}:9:")


def test_region_left_open_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, VALID.removesuffix("}\n"))
    status, _, err = run(capsys, path)
    assert status == 1
    assert err.splitlines()[0] == (
        f"{path}:4:1: error: expected '}}' to close the region, or a block label; "
        "found the end of the input"
    )
    path = write(tmp_path, VALID.replace("relax.return %y", "relax.return %y )"))
    status, _, err = run(capsys, path)
    assert status == 1 and err.splitlines()[0].endswith("or a block label; found ')'")


RESOURCE = """\
func.func @twice() -> (tensor<2xi32>, tensor<2xi32>) {
  %0 = arith.constant dense_resource<weights> : tensor<2xi32>
  %1 = arith.constant dense_resource<weights> : tensor<2xi32>
  func.return %0, %1 : tensor<2xi32>, tensor<2xi32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000100000002000000"
    }
  }
#-}
"""


def test_each_split_input_keeps_its_resource_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        capsys, write(tmp_path, f"{RESOURCE}// -----\n{RESOURCE}"), "--split-input-file"
    )
    assert status == 0
    for chunk in out.split("// -----"):
        assert chunk.count("dense_resource<weights>") == 2
        assert 'weights: "0x040000000100000002000000"' in chunk


def test_uses_of_a_resource_name_taken_earlier_stay_one_resource() -> None:
    ctx = RelaxOptMain(args=["-"]).ctx
    parse_module(ctx, RESOURCE, "first.mlir")
    printed = io.StringIO()
    printer = Printer(stream=printed)
    printer.print_op(parse_module(ctx, RESOURCE, "second.mlir"))
    printer.print_metadata(ctx.loaded_dialects)
    handles = set(re.findall(r"dense_resource<(\w+)>", printed.getvalue()))
    assert len(handles) == 1
    assert f'{handles.pop()}: "0x040000000100000002000000"' in printed.getvalue()


def nested(depth: int) -> str:
    """A function whose parameter's type nests ``depth`` tuples."""
    sinfo = "tuple<" * depth + "tensor<[2], f32>" + ">" * depth
    return f"relax.function @main(%x: !relax.{sinfo}) -> !relax.object {{\n  relax.return %x\n}}\n"


def test_deep_nesting_is_read_or_refused_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, write(tmp_path, nested(1_000)))
    assert status == 0 and out.count("tuple<") == 1_000
    status, _, err = run(capsys, path := write(tmp_path, nested(30_000)))
    column = len("relax.function @main(%x: !relax.") + MAX_NESTING * len("tuple<")  # its "<"
    expected = f"{path}:1:{column}: error: brackets nest deeper than {MAX_NESTING} levels\n"
    assert status == 1 and err.startswith(expected)


def test_nesting_is_measured_outside_strings_and_comments() -> None:
    deep = "(" * (MAX_NESTING + 1)
    assert too_deep_at(deep) == MAX_NESTING
    assert too_deep_at(f'"{deep}" // {deep}\n') is None
    assert too_deep_at("(->" * MAX_NESTING + ")" * MAX_NESTING) is None
    assert too_deep_at("(<=>=)" * (2 * MAX_NESTING)) is None


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, str(tmp_path / "missing.mlir"))
    assert status == 2 and "cannot read" in err
    status, _, err = run(capsys, write(tmp_path, VALID), "-p", "no-such-pass")
    assert status == 2 and "invalid pass pipeline" in err
    status, _, err = run(capsys, write(tmp_path, VALID), "-p", "relax-bind-params{params=a.npz}")
    assert status == 2 and "invalid pass pipeline" in err and "Unknown token" in err
    (tmp_path / "text.npz").write_text("not an archive")
    script = write(tmp_path, "@R.function\ndef main():\n    return R.tuple()\n", "model.py")
    status, _, err = run(capsys, script, "--metadata", str(tmp_path / "text.npz"))
    assert status == 2 and err.endswith("text.npz': not an .npz archive (numpy.savez)\n")
    status, _, err = run(capsys, write(tmp_path, "x", "input.txt"))
    assert status == 2 and "unknown input format" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["--no-such-flag"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:  # xDSL's targets for its own dialects
        main([write(tmp_path, VALID), "-t", "x86-asm"])
    assert exit_info.value.code == 2


def test_passes_and_verification_between_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, VALID)
    status, out, _ = run(capsys, path, "-p", "relax-check-well-formed,relax-check-well-formed")
    assert status == 0 and "relax.function @main" in out
    status, out, _ = run(capsys, path, "-p", "relax-check-well-formed", "--time-passes")
    assert status == 0 and "Pass relax-check-well-formed took" in out


def test_verify_diagnostics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = VALID.replace(
        "  relax.return %y",
        "  // expected-error @+1 {{use of undefined value %z}}\n  relax.return %z",
    )
    status, _, err = run(capsys, write(tmp_path, text), "--verify-diagnostics")
    assert status == 0, err
    wrong = text.replace("%z}}", "%w}}")
    status, _, err = run(capsys, write(tmp_path, wrong), "--verify-diagnostics")
    assert status == 1
    assert "unexpected" in err and "was not produced" in err
    status, _, err = run(
        capsys, write(tmp_path, VALID + "// expected-error {{x}}\n"), "--verify-diagnostics"
    )
    assert status == 1 and "was not produced" in err


def test_split_input_file_keeps_line_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = VALID.replace("relax.return %y", "relax.return %z")
    path = write(tmp_path, VALID + "// -----\n" + broken)
    status, out, err = run(capsys, path, "--split-input-file")
    assert status == 1
    assert out.count("relax.function @main") == 1
    assert err.splitlines()[0].startswith(f"{path}:8:16: error:")


def test_plain_xdsl_opt_loads_the_dialect(tmp_path: Path) -> None:
    path = write(tmp_path, VALID)
    process = start("xdsl-opt", path, "-p", "relax-check-well-formed")
    out, err = process.communicate()
    assert process.returncode == 0, err
    assert "relax.add %x, %x" in out


def chain(bindings: int) -> str:
    """A function of ``bindings`` additions: its text is larger than a pipe's buffer."""
    lines = [VALID.splitlines()[0]]
    previous = "%x"
    for index in range(bindings):
        lines.append(f"  %v{index} = relax.add {previous}, %x : !relax.tensor<[n, 4], f32>")
        previous = f"%v{index}"
    return "\n".join([*lines, f"  relax.return {previous}", "}", ""])


def test_command_flushes_its_output_before_exiting_without_teardown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bindings in (1, 2_000):  # held in the stream's buffer; written through it
        path = write(tmp_path, chain(bindings), f"chain{bindings}.mlir")
        out, err = start("relax-opt", path, "-p", "relax-cse").communicate()
        assert err == "" and out == run(capsys, path, "-p", "relax-cse")[1]
    bad = write(tmp_path, VALID.replace("%x, %x", "%x, %q"), "bad.mlir")
    process = start("relax-opt", bad)
    out, err = process.communicate()
    assert process.returncode == 1 and out == ""
    assert err.startswith(f"{bad}:2:") and "Traceback" not in err


def test_command_whose_reader_leaves_early_exits_1_quietly(tmp_path: Path) -> None:
    process = start("relax-opt", write(tmp_path, chain(2_000)))
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as ``relax-opt ... | head`` when head has its lines
    err = process.stderr.read()
    assert process.wait() == 1
    assert err == ""


@dataclass(frozen=True)
class SinkFirstBinding(ModulePass):
    """A deliberately wrong pass: moves the first binding after its use."""

    name = "test-sink-first-binding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        function = next(o for o in op.body.block.ops if isinstance(o, FunctionOp))
        block = function.body.block
        first, terminator = block.first_op, block.last_op
        assert first is not None and terminator is not None
        first.detach()
        block.insert_op_before(first, terminator)


def test_checker_runs_between_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    register = RelaxOptMain.register_all_passes

    def register_with_broken_pass(self: RelaxOptMain) -> None:
        register(self)
        self.register_pass(SinkFirstBinding.name, lambda: SinkFirstBinding)

    monkeypatch.setattr(RelaxOptMain, "register_all_passes", register_with_broken_pass)
    second = "  %z = relax.add %y, %y : !relax.tensor<[n, 4], f32>\n"
    two_bindings = VALID.replace("  relax.return %y", second + "  relax.return %z")
    path = write(tmp_path, two_bindings)
    status, out, err = run(capsys, path, "-p", "test-sink-first-binding")
    assert status == 1 and out == ""
    assert f"{path}:3:3: error: after pass test-sink-first-binding: %y is used before" in err
    # xdsl-opt's --disable-verify switches attribute verification off process-wide
    monkeypatch.setattr(Attribute, "__post_init__", Attribute.__post_init__)
    status, _, _ = run(capsys, path, "-p", "test-sink-first-binding", "--disable-verify")
    assert status == 0


def test_disable_verify_reaches_inside_pipelines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    inner: list[bool] = []

    def counting(module: ModuleOp, again: bool) -> list[Diagnostic]:
        inner.append(again)
        return recheck_well_formed(module, again)

    monkeypatch.setattr(pipelines, "recheck_well_formed", counting)
    path = write(tmp_path, VALID)
    assert run(capsys, path, "-p", "relax-o2")[0] == 0
    assert len(inner) == len(O2Pass.PASSES)
    inner.clear()
    assert run(capsys, path, "-p", "relax-o2{verify-each=false}")[0] == 0
    assert inner == []
    # xdsl-opt's --disable-verify switches attribute verification off process-wide
    monkeypatch.setattr(Attribute, "__post_init__", Attribute.__post_init__)
    assert run(capsys, path, "-p", "relax-o2", "--disable-verify")[0] == 0
    assert inner == []
