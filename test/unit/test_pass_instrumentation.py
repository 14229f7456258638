"""Pass instrumentation: ``mlir-opt``'s IR printing and timing flags, xDSL's
``--print-between-passes`` and ``--time-passes``, all seeing the passes inside the
pipelines (``relax-o1``, ``relax-o2``, ``relax-lower-to-linalg``); MLIR's
``--pass-pipeline`` syntax."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.frontends import default_context
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.instrumentation import Instrumentation, Stage, instrumented, report, stage
from relax_dialect.passes.pipelines import O1, O1Pass, O2Pass
from relax_xdsl.tools.relax_opt import main

PROGRAM = """\
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.dataflow {
    %a = relax.add %x, %x
    %b = relax.add %x, %x
    %unused = relax.subtract %a, %a
    %c = relax.multiply %a, %b
    relax.output %c
  }
  relax.return %y
}
"""
HEADER = re.compile(r"^// -----// IR Dump (Before|After) ([\w ]+) \(([\w-]+)\) //----- //$", re.M)


@pytest.fixture
def program(tmp_path: Path) -> str:
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main([*args, "--quiet"])
    out, err = capsys.readouterr()
    return status, out, err


def dumps(err: str) -> list[tuple[str, str, str]]:
    return HEADER.findall(err)


def test_print_ir_after_all_shows_the_passes_inside_pipelines(
    program: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, program, "-p", "relax-o2", "--mlir-print-ir-after-all")
    assert status == 0 and "relax.function @main" in out
    assert [name for _, _, name in dumps(err)] == list(O2Pass.PASSES)  # not relax-o2 itself
    assert ("After", "EliminateCommonSubexprPass", "relax-cse") in dumps(err)
    # each dump is the module as it was then: relax-cse merged %b into %a
    after_cse = err.split("(relax-cse) //----- //\n")[1].split("// -----//")[0]
    assert after_cse.startswith("builtin.module {") and "%b = relax.add" not in after_cse
    before_cse = err.split("(relax-fold-constant) //----- //\n")[1].split("// -----//")[0]
    assert "%b = relax.add" in before_cse


def test_print_ir_before_and_after_named_passes(
    program: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--mlir-print-ir-before=relax-cse,relax-fuse-ops", "--mlir-print-ir-after=relax-dce"]
    status, _, err = run(capsys, program, "-p", "relax-o2", *args)
    assert status == 0
    assert [(when, name) for when, _, name in dumps(err)] == [
        ("Before", "relax-cse"),
        ("After", "relax-dce"),
        ("Before", "relax-fuse-ops"),
        ("After", "relax-dce"),
    ]
    assert "warning" not in err
    status, _, err = run(capsys, program, "-p", "relax-o1", "--mlir-print-ir-after=relax-cs")
    assert status == 0 and err == "relax-opt: warning: no pass named 'relax-cs' ran\n"


def test_print_ir_after_change_skips_passes_that_changed_nothing(
    program: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, program, "-p", "relax-o1", "--mlir-print-ir-after-change")
    assert status == 0
    # normalize, canonicalize-bindings, simplify-shapes and fold-constant change nothing here
    assert [name for _, _, name in dumps(err)] == ["relax-cse", "relax-dce"]
    status, _, err = run(
        capsys,
        program,
        "-p",
        "relax-o1",
        "--mlir-print-ir-after-change",
        "--mlir-print-ir-after=relax-dce,relax-normalize",
    )
    assert [name for _, _, name in dumps(err)] == ["relax-dce"]


def test_print_ir_after_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], program: str
) -> None:
    missing = tmp_path / "params.npz"  # relax-bind-params fails on a missing archive
    spec = f'relax-normalize,relax-bind-params{{params="{missing}"}}'
    status, _, err = run(capsys, program, "-p", spec, "--mlir-print-ir-after-failure")
    assert status == 1
    assert dumps(err) == [("After", "BindParamsPass Failed", "relax-bind-params")], err
    assert "error: relax-bind-params" in err


def test_print_between_passes_and_time_passes_see_inner_passes(
    program: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        capsys, program, "-p", "relax-o1,relax-dce", "--print-between-passes", "--time-passes"
    )
    assert status == 0
    between = re.findall(r"^IR after ([\w-]+):$", out, re.M)
    assert between == [*O1[:-1], "relax-o1"]  # not after the last pass: its IR is the output
    timed = re.findall(r"^Pass ([\w-]+) took [0-9.]+ seconds$", out, re.M)
    assert timed == [*O1, "relax-o1", "relax-dce"]


TIMING_LINE = re.compile(r"^  +([0-9]+\.[0-9]{4}) \( *([0-9]+\.[0-9])%\)  ( *)(.+)$")


def test_mlir_timing_is_a_tree_of_every_stage(
    program: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(
        capsys, program, "--pass-pipeline=builtin.module(relax-o2)", "--mlir-timing"
    )
    assert status == 0
    lines = err.splitlines()
    assert lines[0] == lines[2] == "===" + "-" * 73 + "==="
    assert lines[1] == " " * 25 + "... Execution time report ..."
    assert re.fullmatch(r"  Total Execution Time: [0-9.]+ seconds", lines[3])
    assert lines[5] == "  ----Wall Time----  ----Name----"
    rows = [TIMING_LINE.fullmatch(line) for line in lines[6:]]
    assert all(rows), lines[6:]
    tree = [(len(row[3]) // 2, row[4]) for row in rows if row]
    inner = [(1, name) for name in dict.fromkeys(O2Pass.PASSES)]
    assert (
        tree
        == [
            (0, "Parser"),
            (0, "Verifier"),
            (0, "relax-o2"),
            inner[0],
            (1, "Verifier"),  # the checks between the inner passes, merged as MLIR merges timers
            *inner[1:],
            (0, "Output"),
            (0, "Rest"),
            (0, "Total"),
        ]
    )
    assert rows[-1] and rows[-1][2] == "100.0"


def test_lowering_pipeline_shows_its_inner_passes(
    program: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, program, "-p", "relax-lower-to-linalg", "--mlir-timing")
    assert status == 0
    names = [row[4].strip() for line in err.splitlines() if (row := TIMING_LINE.fullmatch(line))]
    assert names[names.index("relax-lower-to-linalg") :][:4] == [
        "relax-lower-to-linalg",
        "relax-prepare-for-lowering",
        "relax-normalize",
        "Verifier",
    ]
    assert "convert-relax-to-linalg" in names


def test_mlir_pass_pipeline_syntax(program: str, capsys: pytest.CaptureFixture[str]) -> None:
    expected = run(capsys, program, "-p", "relax-cse,relax-dce")[1]
    spelled = "builtin.module(relax-cse, relax-dce)"
    assert run(capsys, program, f"--pass-pipeline={spelled}")[1] == expected
    assert run(capsys, program, "-p", spelled)[1] == expected
    status, _, err = run(capsys, program, "--pass-pipeline=builtin.module(func.func(cse))")
    assert status == 2 and "nested pipelines ('func.func(...)') are not supported" in err
    status, _, err = run(capsys, program, "-p", "relax-cse", "--pass-pipeline=relax-dce")
    assert status == 2 and "with -p or with --pass-pipeline, not both" in err
    status, _, err = run(capsys, program, "--pass-pipeline=builtin.module(no-such-pass)")
    assert status == 2 and "no-such-pass" in err


class Recorder(Instrumentation):
    def __init__(self) -> None:
        self.events: list[str] = []

    def before(self, stage: Stage, module: ModuleOp | None) -> None:
        self.events.append(f"+{stage.name}")

    def after(self, stage: Stage, module: ModuleOp | None, failed: bool) -> None:
        self.events.append(f"-{stage.name}{'!' if failed else ''}")

    def progress(self, what: str, done: int, total: int | None) -> None:
        self.events.append(f"{done}/{total} {what}")


def test_one_hook_sees_pipelines_inner_passes_and_checks() -> None:
    module = parse_module(default_context(), PROGRAM, "program.mlir")
    recorder = Recorder()
    with instrumented(recorder):
        O1Pass().apply(Context(), module)
        with pytest.raises(ValueError), stage("failing"):
            report("steps", 1, 2)
            raise ValueError
    expected = [
        event for name in O1 for event in (f"+{name}", f"-{name}", "+Verifier", "-Verifier")
    ]
    assert recorder.events == [*expected, "+failing", "1/2 steps", "-failing!"]
    recorder.events.clear()
    O1Pass().apply(Context(), module)  # nothing installed: nothing told
    assert recorder.events == []
