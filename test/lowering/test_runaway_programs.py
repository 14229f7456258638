"""Programs that would take the machine down end with a clean, located error on every
backend: endless recursion, recursion just under the limit, memory beyond the limit.

Each runs ``relax-run`` in a subprocess limited to 4 GiB of address space, so that a
regression fails the test instead of exhausting the machine running it."""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from relax_dialect.recursion import MAX_CALL_DEPTH

NATIVE = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="the MLIR toolchain (mlir-22-tools) is absent"
)
BACKENDS = ["reference", "lowered", pytest.param("mlir", marks=NATIVE)]
ADDRESS_SPACE = 4 << 30

ENDLESS = """\
from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        z = Module.main(y)
        return z
"""

COUNTDOWN = """\
from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), n: R.Prim(value="k")) -> R.Tensor((4,), "float32"):
        k = T.int64()
        if R.prim_value(k > 0):
            y = R.add(x, R.const(1, "float32"))
            r = Module.main(y, R.prim_value(k - 1))
        else:
            r = x
        return r
"""

HUGE = """\
from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.zeros(R.shape([1000000, 1000]), "float32")
        z = R.sum(y)
        w = R.add(x, z)
        return w
"""


def _limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def relax_run(tmp_path: Path, program: str, *args: str, **inputs: object) -> tuple[int, str]:
    """``relax-run`` on ``program`` with ``inputs``: its exit status and standard error."""
    source = tmp_path / "program.py"
    source.write_text(program)
    np.savez(tmp_path / "inputs.npz", x=np.ones(4, "float32"), **inputs)  # pyright: ignore
    command = Path(sys.executable).with_name("relax-run")
    done = subprocess.run(
        [str(command), str(source), "--inputs", str(tmp_path / "inputs.npz"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_limit_address_space,
    )
    return done.returncode, done.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_endless_recursion_is_a_located_error(tmp_path: Path, backend: str) -> None:
    status, err = relax_run(tmp_path, ENDLESS, "--backend", backend)
    assert status == 1
    assert err.startswith(
        f"{tmp_path / 'program.py'}:8:13: error: recursion too deep: "
        f"more than {MAX_CALL_DEPTH} nested calls\n"
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_recursion_up_to_the_limit_runs(tmp_path: Path, backend: str) -> None:
    outputs = tmp_path / "outputs.npz"
    args = ["--backend", backend, "--outputs", str(outputs), "--quiet"]  # no timing summary
    status, err = relax_run(tmp_path, COUNTDOWN, *args, n=np.int64(MAX_CALL_DEPTH))
    assert (status, err) == (0, "")
    np.testing.assert_array_equal(np.load(outputs)["out0"], np.full(4, 1 + MAX_CALL_DEPTH))


@NATIVE
def test_native_memory_beyond_the_limit_is_a_located_error(tmp_path: Path) -> None:
    status, err = relax_run(tmp_path, HUGE, "--backend", "mlir", "--memory-limit", "1G")
    assert status == 1
    assert err.startswith(
        f"{tmp_path / 'program.py'}:6:5: error: @main: out of memory: allocating 4000000064 "
        "bytes would exceed the memory limit of 1073741824 bytes (relax-run --memory-limit)\n"
    )


@NATIVE
def test_native_failed_allocation_is_a_located_error(tmp_path: Path) -> None:
    status, err = relax_run(tmp_path, HUGE, "--backend", "mlir", "--memory-limit", "0")
    assert status == 1
    assert "error: @main: out of memory: allocating 4000000064 bytes failed\n" in err


def test_memory_limit_takes_sizes(tmp_path: Path) -> None:
    status, err = relax_run(tmp_path, HUGE, "--memory-limit", "4X")
    assert status == 2 and "'4X' is not a size (e.g. 4G, 512M, 0)" in err
