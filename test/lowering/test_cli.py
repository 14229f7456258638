"""The lowered backends from the command line: ``relax-run --backend``, backend
lists comparing results, ``relax-opt --emit llvm-dialect``."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from relax_xdsl.lowering.backends import BACKENDS, backend_named
from relax_xdsl.tools.relax_opt import main as relax_opt
from relax_xdsl.tools.relax_run import _gap  # pyright: ignore[reportPrivateUsage]
from relax_xdsl.tools.relax_run import main as relax_run

NATIVE = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="the MLIR toolchain (mlir-22-tools) is absent"
)

PROGRAM = """\
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 4], f32>, %s: !relax.shape<[n]>) -> !relax.tuple<tensor<[n, 4], f32>, shape<[n, 2]>> {
  %0 = relax.dataflow {
    %a = relax.matmul %x, %w : !relax.tensor<[n, 4], f32>
    %b = relax.nn.relu %a : !relax.tensor<[n, 4], f32>
    relax.output %b
  }
  %c = relax.match_cast %0 : !relax.tensor<[2, 4], f32>
  %shape = relax.shape [n, 2] : !relax.shape<[n, 2]>
  %r = relax.tuple(%c, %shape) : !relax.tuple<tensor<[2, 4], f32>, shape<[n, 2]>>
  relax.return %r
}
"""


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "program.mlir").write_text(PROGRAM)
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 4), "f4"), rng.standard_normal((4, 4), "f4")
    np.savez(tmp_path / "good.npz", x=x, w=w, s=np.array([2]))
    np.savez(tmp_path / "bad.npz", x=np.ones((3, 4), "f4"), w=w, s=np.array([3]))
    return tmp_path


@pytest.mark.parametrize("backend", ["lowered", pytest.param("mlir", marks=NATIVE)])
def test_backend_results_equal_the_reference(
    files: Path, backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = {}
    for name in ("reference", backend):
        out = files / f"{name}.npz"
        args = [str(files / "program.mlir"), "--inputs", str(files / "good.npz")]
        assert relax_run([*args, "--backend", name, "--outputs", str(out)]) == 0
        outputs[name] = dict(np.load(out))
    assert outputs[backend].keys() == {"out0", "out1"}
    np.testing.assert_allclose(outputs[backend]["out0"], outputs["reference"]["out0"], rtol=1e-5)
    np.testing.assert_array_equal(outputs[backend]["out1"], [2, 2])


@pytest.mark.parametrize("backend", ["lowered", pytest.param("mlir", marks=NATIVE)])
def test_failed_check_is_located(
    files: Path, backend: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(files / "program.mlir"), "--inputs", str(files / "bad.npz")]
    assert relax_run([*args, "--backend", backend]) == 1
    error = capsys.readouterr().err
    assert "program.mlir:7:3: error: match_cast: dimension 0" in error
    assert "Traceback" not in error


@NATIVE
def test_backend_list_compares_results(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(files / "program.mlir"), "--inputs", str(files / "good.npz")]
    assert relax_run([*args, "--backend", "all"]) == 0
    out = capsys.readouterr().out
    assert "lowered: " in out and "agrees with reference" in out
    available = [name for name in BACKENDS if backend_named(name).unavailable() is None]
    assert out.count("agrees with reference") == len(available) - 1


def test_unknown_backend_is_a_usage_error(files: Path) -> None:
    with pytest.raises(SystemExit) as exit_status:
        relax_run([str(files / "program.mlir"), "--backend", "gpu"])
    assert exit_status.value.code == 2


@NATIVE
def test_emit_llvm_dialect(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = str(files / "program.mlir")
    assert relax_opt([program, "-p", "relax-lower-to-linalg", "--emit", "llvm-dialect"]) == 0
    text = capsys.readouterr().out
    assert "llvm.func @main" in text and "linalg." not in text
    assert relax_opt([program, "--emit", "llvm-dialect"]) == 1
    assert "needs a lowered module" in capsys.readouterr().err


NON_FINITE = """\
relax.function @main(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %y = relax.log %x : !relax.tensor<[4], f32>
  %z = relax.divide %y, %y : !relax.tensor<[4], f32>
  %w = relax.add %z, %y : !relax.tensor<[4], f32>
  relax.return %w
}
"""


def test_non_finite_results_compare_without_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "program.mlir").write_text(NON_FINITE)
    np.savez(tmp_path / "x.npz", x=np.array([0, -1, 1, 2], "f4"))  # -inf, nan, 0, log 2
    args = [str(tmp_path / "program.mlir"), "--inputs", str(tmp_path / "x.npz")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert relax_run([*args, "--backend", "reference,lowered"]) == 0
    out = capsys.readouterr().out
    assert "lowered: " in out and "agrees with reference (max relative difference 0)" in out


@pytest.mark.parametrize(
    ("want", "got", "gap"),
    [
        ([np.inf, -np.inf, np.nan, 1.0], [np.inf, -np.inf, np.nan, 1.0], 0.0),
        ([np.inf], [-np.inf], np.inf),
        ([np.nan], [1.0], np.inf),
        ([2.0], [np.inf], np.inf),
        ([1e308], [-1e308], np.inf),
        ([4.0, 0.5], [5.0, 0.25], 0.25),
    ],
)
def test_gap_treats_non_finite_values_deliberately(
    want: list[float], got: list[float], gap: float
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _gap(np.array(want), np.array(got)) == gap


BFLOAT16_PROGRAM = """\
relax.function @main(%x: !relax.tensor<[n], bf16>) -> !relax.tensor<[n], f8E4M3FN> {
  %e = relax.exp %x
  %r = relax.astype %e {dtype = f8E4M3FN}
  relax.return %r
}
"""


@NATIVE
def test_float_formats_from_npz_agree_or_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """bf16 inputs (raw bytes in the archive) run on every backend; native code
    refuses the f8E4M3FN result with its location, the others agree."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    (tmp_path / "p.mlir").write_text(BFLOAT16_PROGRAM)
    np.savez(tmp_path / "in.npz", x=np.array([0.5, -3.0, 6.25], ml_dtypes.bfloat16))
    args = [str(tmp_path / "p.mlir"), "--inputs", str(tmp_path / "in.npz")]
    assert relax_run([*args, "--backend", "reference,lowered,mlir"]) == 0
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert (
        "mlir: skipped: " in out
        and "p.mlir:3:3: relax.astype: native code cannot compute f8E4M3FN" in out
    )
    assert "lowered: " in out and "agrees with reference (max relative difference 0)" in out
