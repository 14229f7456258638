"""What the commands say about themselves: ``--help`` (the passes grouped, each
with its description), ``--list-passes``, ``--list-operators``, ``-v``."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from installed_commands import start

from relax_dialect.ops import operator_families, operators
from relax_dialect.passes import PASSES
from relax_xdsl.lowering import LOWERING_PASSES
from relax_xdsl.tools import relax_opt, relax_run
from relax_xdsl.tools.catalog import summary

Main = Callable[[list[str]], int]


def output(capsys: pytest.CaptureFixture[str], main: Main, *args: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    assert exit_info.value.code in (0, None)
    return capsys.readouterr().out


def test_help_groups_our_passes_with_descriptions(capsys: pytest.CaptureFixture[str]) -> None:
    text = output(capsys, relax_opt.main, "--help")
    epilog = text[text.index("\npipelines:\n") :]
    sections = re.split(r"^(pipelines|Relax passes|lowering):$", epilog, flags=re.M)
    groups = dict(zip(sections[1::2], sections[2::2], strict=True))
    listed = {
        group: re.findall(r"^  ([a-z][\w-]+) +\S", body, re.M) for group, body in groups.items()
    }
    assert listed["pipelines"] == ["relax-o1", "relax-o2", "relax-lower-to-linalg"]
    assert "relax-cse" in listed["Relax passes"] and "relax-o1" not in listed["Relax passes"]
    assert listed["lowering"] == ["convert-relax-to-linalg", "outline-kernels"]
    ours = [*PASSES, *LOWERING_PASSES]
    assert sorted(name for names in listed.values() for name in names) == sorted(ours)
    assert "  relax-cse                       Replace a binding that computes" in text
    # xDSL's passes are reachable, not listed: no stencil or riscv pass in --help
    assert "stencil" not in text and "riscv" not in text
    assert "--list-passes lists every pass" in text
    # no pass name is broken across lines
    for name in ours:
        for head in range(1, len(name)):
            if name[head - 1] == "-":
                assert f"{name[:head]}\n" not in text, name


def test_help_describes_each_tool(capsys: pytest.CaptureFixture[str]) -> None:
    opt = output(capsys, relax_opt.main, "--help")
    run = output(capsys, relax_run.main, "--help")
    assert "optimizer driver" in " ".join(opt.split())
    assert "optimizer driver" not in " ".join(run.split())
    assert "Run a function of a Relax module" in run
    assert "--backend" in run and "--quiet" in run and "--mlir-timing" in run


def test_list_passes_has_options_and_defaults_and_xdsl_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = output(capsys, relax_opt.main, "--list-passes")
    ours, xdsl = text.split("xDSL's passes:\n")
    assert "      verify-each: bool = true\n" in ours  # relax-o1's option
    fold = ours[ours.index("  relax-fold-constant") :]
    assert re.search(r"^      max-size: int = [0-9]+$", fold, re.M)
    assert re.search(r"^  canonicalize +\S", xdsl, re.M)
    assert re.search(r"^  convert-stencil-to-ll-mlir", xdsl, re.M)
    assert "relax-cse" not in xdsl


def test_list_operators(capsys: pytest.CaptureFixture[str]) -> None:
    text = output(capsys, relax_opt.main, "--list-operators")
    listed = re.findall(r"^  (relax\.[\w.]+)", text, re.M)
    assert listed == [op.name for family in operator_families() for op in family.OPERATIONS]
    assert set(operators()) <= set(listed)
    assert "  relax.matmul" in text
    assert f"  relax.add{' ' * 23}{summary(operators()['relax.add'])}" in text


@pytest.mark.parametrize("main", [relax_opt.main, relax_run.main])
def test_version_names_relax_xdsl_and_what_it_runs_with(
    main: Main, capsys: pytest.CaptureFixture[str]
) -> None:
    text = output(capsys, main, "-v")
    lines = text.splitlines()
    tool = "relax-opt" if main is relax_opt.main else "relax-run"
    assert re.fullmatch(rf"{tool} \(relax-xdsl\) [0-9][\w.+]*", lines[0])
    assert re.fullmatch(r"  xDSL 0\.74\.0", lines[1])
    assert re.fullmatch(r"  NumPy [0-9][\w.]*", lines[2])
    assert lines[3].startswith("  MLIR toolchain: ")
    assert lines[4].startswith("  IREE: ")
    assert "xdsl-opt built from" not in text


def test_installed_commands_list_and_version(tmp_path: Path) -> None:
    process = start("relax-run", "--version")
    out, err = process.communicate()
    assert process.returncode == 0, err
    assert out.startswith("relax-run (relax-xdsl) ")
    process = start("relax-opt", "--list-operators")
    out, err = process.communicate()
    assert process.returncode == 0 and "relax.nn.softmax" in out, err


def test_help_loads_no_pass_until_asked() -> None:
    """The pass list is made when --help prints it, not on every run."""
    code = (
        "import sys; from relax_xdsl.tools.relax_opt import RelaxOptMain; "
        "RelaxOptMain(['-']); print('relax_dialect.passes.cse' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert loaded.stdout == "False\n", loaded.stderr
