"""Progress on standard error: a status line on a terminal, a summary line
otherwise, nothing with ``--quiet``; backend timings say whether native code was
compiled or came from the cache."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import numpy as np
import pytest

from relax_dialect.instrumentation import instrumented, report, stage
from relax_xdsl.lowering.backends import backend_named
from relax_xdsl.tools import progress
from relax_xdsl.tools.progress import Progress
from relax_xdsl.tools.relax_run import main

PROGRAM = """\
relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %y = relax.add %x, %x
  %z = relax.call @twice(%y) : !relax.tensor<[2, 3], f32>
  relax.return %z
}
relax.function @twice(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %y = relax.add %x, %x
  relax.return %y
}
"""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def immediate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Progress from the first moment, every change drawn."""
    monkeypatch.setattr(progress, "LIVE_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(progress, "REFRESH_SECONDS", 0.0)
    monkeypatch.setattr(progress, "SUMMARY_AFTER_SECONDS", 0.0)


def lowering_stages() -> None:
    with stage("Parser"):
        pass
    with stage("relax-lower-to-linalg"), stage("convert-relax-to-linalg"):
        report("functions lowered", 3, 5)


def test_status_line_on_a_terminal(immediate: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "70")  # a line longer than the terminal is cut
    terminal = Terminal()
    shown = Progress("relax-run", terminal)
    with instrumented(shown):
        lowering_stages()
    shown.finish()
    lines = terminal.getvalue().split("\r\x1b[K")
    assert "relax-run: relax-lower-to-linalg › convert-relax-to-linalg" in lines
    counted = "relax-run: relax-lower-to-linalg › convert-relax-to-linalg: 3/5 functions"
    assert counted[:69] in lines and max(map(len, lines)) == 69
    assert lines[-1] == ""  # the line is cleared at the end, nothing stays behind
    assert "\n" not in terminal.getvalue()


def test_a_long_stage_is_redrawn_with_its_time(
    immediate: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "LIVE_AFTER_SECONDS", 0.05)  # after the stage began
    monkeypatch.setattr(progress, "REFRESH_SECONDS", 0.01)
    monkeypatch.setattr(progress, "ELAPSED_AFTER_SECONDS", 0.1)
    terminal = Terminal()
    shown = Progress("relax-opt", terminal)
    with instrumented(shown), stage("Parser"):
        time.sleep(0.5)
    shown.finish()
    lines = terminal.getvalue().split("\r\x1b[K")
    assert "relax-opt: Parser" in lines and "relax-opt: Parser (0 s)" in lines
    assert lines[-1] == ""


def test_summary_line_elsewhere(immediate: None) -> None:
    stream = io.StringIO()
    shown = Progress("relax-run", stream)
    with instrumented(shown):
        lowering_stages()
    shown.finish()
    assert re.fullmatch(
        r"relax-run: [0-9.]+ s: Parser [0-9.]+ s, relax-lower-to-linalg [0-9.]+ s "
        r"\(3/5 functions lowered\)\n",
        stream.getvalue(),
    )


def test_no_summary_of_failed_or_short_work(
    immediate: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = io.StringIO()
    failed = Progress("relax-opt", stream)
    with instrumented(failed), pytest.raises(ValueError), stage("Parser"):
        raise ValueError
    failed.finish()
    monkeypatch.setattr(progress, "SUMMARY_AFTER_SECONDS", 3600.0)
    short = Progress("relax-opt", stream)
    with instrumented(short):
        lowering_stages()
    short.finish()
    assert stream.getvalue() == ""


def test_relax_run_summary_and_quiet(
    immediate: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    inputs = tmp_path / "in.npz"

    np.savez(inputs, x=np.ones((2, 3), "float32"))
    assert main([str(path), "--inputs", str(inputs), "--backend", "lowered"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("relax-run: ")
    for part in ("Parser", "Verifier", "(2/2 functions lowered)"):
        assert part in err  # one backend lowers while it compiles (a warm native one need not)
    assert "compile (lowered)" in err and "run (lowered)" in err
    assert main([str(path), "--inputs", str(inputs), "--backend", "lowered", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_native_timing_says_compiled_or_cached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if (reason := backend_named("mlir").unavailable()) is not None:
        pytest.skip(reason)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)

    np.savez(tmp_path / "in.npz", x=np.ones((2, 3), "float32"))
    args = [str(path), "--inputs", str(tmp_path / "in.npz"), "--backend", "reference,mlir", "-q"]
    assert main(args) == 0
    assert re.search(
        r"^mlir: [0-9.]+ s \(with compilation\), agrees", capsys.readouterr().out, re.M
    )
    assert main(args) == 0
    again = capsys.readouterr().out
    assert re.search(r"^mlir: [0-9.]+ s \(compiled code from the cache\), agrees", again, re.M)
    assert re.search(r"^reference: [0-9.]+ s$", again, re.M)
