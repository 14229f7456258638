"""The backend registry: every backend behind one interface, ``--backend all`` and
``--benchmark`` alike for each, a new backend as one module, and what a backend
cannot run refused with a located error (or skipped beside others)."""

from __future__ import annotations

import re
import shutil
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import PackedRegistry
from relax_xdsl.lowering import backends
from relax_xdsl.lowering.backends import BACKENDS, Registered, backend_named, compile_function
from relax_xdsl.lowering.backends.backend import Backend, Compiled, Program, RunOptions
from relax_xdsl.tools.relax_run import main as relax_run

NATIVE = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="the MLIR toolchain (mlir-22-tools) is absent"
)

PROGRAM = """\
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %y = relax.multiply %x, %x : !relax.tensor<[n], f32>
  relax.return %y
}
"""

PACKED = """\
relax.function @main(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %y = relax.call_pure_packed "test.twice" (%x) : !relax.tensor<[4], f32>
  relax.return %y
}
"""

PLUGIN = """\
def register_packed_functions(registry):
    registry.register("test.twice", lambda x: x + x)
"""


def parse(text: str, name: str) -> ModuleOp:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    return parse_module(ctx, text, name)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "program.mlir").write_text(PROGRAM)
    (tmp_path / "packed.mlir").write_text(PACKED)
    (tmp_path / "twice_plugin.py").write_text(PLUGIN)
    np.savez(tmp_path / "in.npz", x=np.arange(4, dtype="f4"))
    return tmp_path


@pytest.mark.parametrize("name", list(BACKENDS))
def test_every_registered_backend_loads_and_runs(name: str) -> None:
    backend = backend_named(name)
    assert backend.name == name
    if (reason := backend.unavailable()) is not None:
        pytest.skip(reason)
    module = parse(PROGRAM, "program.mlir")
    x = np.arange(5, dtype="f4")
    np.testing.assert_array_equal(np.asarray(compile_function(module, "main", name)(x)), x * x)


def test_every_backend_runs_in_all(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(files / "program.mlir"), "--inputs", str(files / "in.npz")]
    assert relax_run([*args, "--backend", "all"]) == 0
    captured = capsys.readouterr()
    for name in BACKENDS:
        assert re.search(rf"^{name}: ", captured.out + captured.err, re.M), name


@pytest.mark.parametrize("names", ["reference", "lowered", "reference,lowered"])
def test_benchmark_prints_a_median_per_backend(
    files: Path, names: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(files / "program.mlir"), "--inputs", str(files / "in.npz")]
    assert relax_run([*args, "--backend", names, "--benchmark", "3"]) == 0
    out = capsys.readouterr().out
    for name in names.split(","):
        assert re.search(rf"^{name}: median [0-9.]+ ms$", out, re.M), out


def test_negative_benchmark_is_a_usage_error(files: Path) -> None:
    assert relax_run([str(files / "program.mlir"), "--benchmark", "-1"]) == 2


@NATIVE
def test_native_code_refuses_packed_calls_located(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Native code has no packed functions: a located error, not a failed load."""
    args = [str(files / "packed.mlir"), "--inputs", str(files / "in.npz")]
    assert relax_run([*args, "--plugin", str(files / "twice_plugin.py"), "--backend", "mlir"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"{files / 'packed.mlir'}:2:3: error: relax.call_pure_packed: ")
    assert "cannot call packed function 'test.twice'" in error


@NATIVE
def test_a_backend_that_cannot_run_the_module_is_skipped_beside_others(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(files / "packed.mlir"), "--inputs", str(files / "in.npz")]
    plugin = ["--plugin", str(files / "twice_plugin.py")]
    assert relax_run([*args, *plugin, "--backend", "all"]) == 0
    captured = capsys.readouterr()
    assert "mlir: skipped: " in captured.err and "packed.mlir:2:3" in captured.err
    assert "lowered: " in captured.out and "agrees with reference" in captured.out


class EchoBackend(Backend):
    """A backend of a test: the reference interpreter under another name."""

    name = "echo"
    runs_lowered = False

    def compile(self, program: Program, entry: str) -> Compiled:
        machine = program.machine
        return lambda *args: machine.run(entry, *args)


class AbsentBackend(EchoBackend):
    """A backend whose dependencies are not installed."""

    name = "absent"

    def unavailable(self) -> str | None:
        return "the absent runtime is not installed; install it with `pip install absent`"


@pytest.fixture
def extra_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    """The backends above, registered as one more module, as a new backend would be."""
    module = types.ModuleType(f"{backends.__name__}.test_extra")
    module.EchoBackend = EchoBackend  # pyright: ignore[reportAttributeAccessIssue]
    module.AbsentBackend = AbsentBackend  # pyright: ignore[reportAttributeAccessIssue]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    registered = {
        **BACKENDS,
        "echo": Registered("test_extra", "a test's backend"),
        "absent": Registered("test_extra", "a test's backend that is not installed"),
    }
    monkeypatch.setattr(backends, "BACKENDS", registered)
    monkeypatch.setattr("relax_xdsl.tools.relax_run.BACKENDS", registered)


@pytest.mark.usefixtures("extra_backends")
def test_a_new_backend_is_one_registered_module(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(files / "program.mlir"), "--inputs", str(files / "in.npz")]
    assert relax_run([*args, "--backend", "reference,echo", "--benchmark", "2"]) == 0
    out = capsys.readouterr().out
    assert "echo: " in out and "agrees with reference" in out
    assert re.search(r"^echo: median [0-9.]+ ms$", out, re.M)


@pytest.mark.usefixtures("extra_backends")
def test_an_unavailable_backend_says_how_to_install_it(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(files / "program.mlir"), "--inputs", str(files / "in.npz")]
    assert relax_run([*args, "--backend", "absent"]) == 1
    assert "relax-run: error: the absent runtime is not installed; install it with" in (
        capsys.readouterr().err
    )
    assert relax_run([*args, "--backend", "reference,absent"]) == 0
    assert "absent: skipped: the absent runtime is not installed" in capsys.readouterr().err


def test_packed_functions_reach_the_lowered_backend(files: Path) -> None:
    module = parse(PACKED, "packed.mlir")
    registry = PackedRegistry()
    registry.register("test.twice", lambda x: x + x)
    x = np.arange(4, dtype="f4")
    twice = compile_function(module, "main", "lowered", RunOptions(packed=registry))
    np.testing.assert_array_equal(np.asarray(twice(x)), x + x)
