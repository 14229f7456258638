"""Threads in native code (``lowering/threads.py``): OpenMP loops give the same bits on one
and two threads, at odd sizes of a symbolic dimension."""

from __future__ import annotations

import ctypes
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from toolchain_harness import needs_toolchain

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.math_approximation import approximate_math
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.threads import (
    CALL_SPIN_MS,
    WAIT_POLICY_VARIABLES,
    call_spin_ms,
    openmp_library,
)
from relax_xdsl.lowering.tiling import tiling_passes
from relax_xdsl.lowering.toolchain import (
    _transform_library,
    compile_module,
    find_toolchain,
    generic_text,
)

pytestmark = [needs_toolchain, pytest.mark.heavy]

PROGRAM = """from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 17), "float32"), w: R.Tensor((17, 7), "float32"),
             g: R.Tensor((7,), "float32")) -> R.Tensor(("n", 7), "float32"):
        with R.dataflow():
            h = R.nn.gelu(R.matmul(x, w))
            s = R.nn.softmax(h, axis=-1)
            y = R.nn.layer_norm(R.add(s, h), g, g, axes=[-1])
            z = R.sum(y, axis=[0], keepdims=True)
            r = R.multiply(y, z)
            R.output(r)
        return r
"""


SHARED = """from tvm.script import ir as I, relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, "n", 7), "float32"), g: R.Tensor((7,), "float32"),
             c: R.Tensor(("n", 3, 9, 9), "float32"), w: R.Tensor((5, 3, 3, 3), "float32"),
             b: R.Tensor((1, 5, 1, 1), "float32"), a: R.Tensor((1, 3, "n", 130), "float32"),
             h: R.Tensor((130,), "float32"), k: R.Tensor(("n", 17, 9), "float32")):
        with R.dataflow():
            e = R.nn.relu(R.add(R.multiply(x, g), g))
            s = R.nn.softmax(R.permute_dims(e, [0, 2, 1]), axis=-1)
            m = R.mean(x, axis=[1])
            p = R.nn.pad(x, [0, 0, 1, 2, 0, 0], pad_value=1.5)
            v = R.nn.relu(R.add(R.nn.conv2d(c, w, padding=[1]), b))
            q = R.nn.max_pool2d(v, pool_size=[3], strides=[2], padding=[1])
            n = R.nn.layer_norm(a, h, h, axes=[-1])
            t = R.sum(a)
            u = R.nn.silu(k)
            o = (s, m, p, q, n, t, u)
            R.output(o)
        return o
"""
"""Operations no other schedule tiles (element-wise ones behind a batch of 1 and behind a
symbolic batch, a transpose, a softmax and a layer norm by rows, a mean over the rows, a pad, a
convolution's epilogue and a pool on threads, a sum over everything) at odd sizes of a symbolic
dimension."""


def openmp_missing() -> bool:
    return openmp_library(find_toolchain().runtime) is None


@pytest.mark.parametrize("tile", [False, True])
def test_threads_do_not_change_results(tile):
    """The OpenMP library gives the same bits on one thread and on two; the sequential
    library (``RunOptions(threads=1)``) agrees within rounding (it vectorises differently)."""
    if openmp_missing():
        pytest.skip("libomp is not installed (apt-get install libomp-22-dev)")
    module = parse_tvmscript(PROGRAM, "threads.py")
    outlined = approximate_math(lower(module))
    outline_kernels(outlined)
    text = generic_text(outlined)
    parallel = compile_module(text, tile, parallel=True)
    sequential = compile_function(module, "main", "mlir", RunOptions(tile=tile, threads=1))
    for n in (1, 3, 7, 17, 130):
        rng = np.random.default_rng(n)
        args = [rng.standard_normal(s).astype(np.float32) for s in ((n, 17), (17, 7), (7,))]
        [one] = parallel.call("main", args, threads=1)
        [two] = parallel.call("main", args, threads=2)
        np.testing.assert_array_equal(two, one)
        np.testing.assert_allclose(one, np.asarray(sequential(*args)), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(one, run(module, "main", *args), rtol=1e-4, atol=1e-4)


def test_threads_must_be_positive(tmp_path):
    source = tmp_path / "threads.py"
    source.write_text(PROGRAM)
    command = [sys.executable, "-m", "relax_xdsl.tools.relax_run", str(source), "--threads", "0"]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 2 and "--threads" in result.stderr


def other_tasks() -> list[Path]:
    """The ``/proc`` entries of the process's threads but this one."""
    main = str(threading.get_native_id())
    return [t for t in Path("/proc/self/task").iterdir() if t.name != main]


def workers_cpu_while_idle(seconds: float = 0.3) -> float:
    """CPU seconds the process's other threads take while this one sleeps ``seconds``."""

    def others() -> float:
        return sum(int((t / "schedstat").read_text().split()[0]) for t in other_tasks()) * 1e-9

    before = others()
    time.sleep(seconds)
    return others() - before


def a_worker_spins() -> bool:
    """Whether another thread is runnable (state ``R``) now: a spinning worker is, even on a
    loaded machine where it waits for a core; a parked one sleeps."""
    return any((t / "stat").read_text().rpartition(")")[2].split()[0] == "R" for t in other_tasks())


def test_workers_spin_within_a_call_and_sleep_after_it(monkeypatch):
    """A call on OpenMP threads lets libomp's workers spin `CALL_SPIN_MS` between its regions,
    then parks them: after the call they take no CPU. With ``KMP_BLOCKTIME`` or
    ``OMP_WAIT_POLICY`` in the environment libomp keeps its setting, and its workers keep
    spinning (runnable) after the call."""
    if openmp_missing():
        pytest.skip("libomp is not installed (apt-get install libomp-22-dev)")
    for variable in WAIT_POLICY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    assert call_spin_ms() == CALL_SPIN_MS > 0
    module = parse_tvmscript(PROGRAM, "threads.py")
    compiled = compile_module(generic_text(lower(module)), tile=True, parallel=True)
    libomp = ctypes.CDLL(str(openmp_library(find_toolchain().runtime)))
    args = [np.ones(s, np.float32) for s in ((130, 17), (17, 7), (7,))]
    compiled.call("main", args, threads=2)
    assert libomp.kmp_get_blocktime() == 0
    # the least of three windows within CALL_SPIN_MS: a loaded machine may run a parked
    # worker's last steps late; unparked workers would still spin at the end of them
    assert min(workers_cpu_while_idle(CALL_SPIN_MS / 4000) for _ in range(3)) < 0.001
    assert not a_worker_spins()
    monkeypatch.setenv("OMP_WAIT_POLICY", "active")
    assert call_spin_ms() is None
    libomp.kmp_set_blocktime(1000)
    compiled.call("main", args, threads=2)
    assert libomp.kmp_get_blocktime() == 1000
    assert a_worker_spins()
    libomp.kmp_set_blocktime(0)
    compiled.call("main", args, threads=2)  # parks the workers (blocktime 0) for later tests


def shared_arguments(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(n)
    shapes = [(1, n, 7), (7,), (n, 3, 9, 9), (5, 3, 3, 3), (1, 5, 1, 1), (1, 3, n, 130), (130,)]
    shapes.append((n, 17, 9))
    return [rng.standard_normal(shape).astype(np.float32) for shape in shapes]


def outlined_shared():
    """`SHARED` lowered for native code on threads, its kernels outlined."""
    outlined = approximate_math(lower(parse_tvmscript(SHARED, "shared.py")))
    outline_kernels(outlined)
    return outlined


def test_every_kernel_but_a_whole_sum_has_a_threads_loop():
    """After the schedule, each kernel of `SHARED` holds an ``scf.forall`` but the sum of every
    element (no parallel loop to split)."""
    pipeline = ",".join(tiling_passes(_transform_library()))
    command = [find_toolchain().mlir_opt, f"--pass-pipeline=builtin.module({pipeline})"]
    result = subprocess.run(
        command, input=generic_text(outlined_shared()), capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    kernels = result.stdout.split(f"func.func private @{KERNEL_PREFIX}")[1:]
    whole_sums = [k for k in kernels if "-> tensor<f32> attributes" in k.split("\n", 1)[0]]
    assert len(kernels) > 10 and len(whole_sums) == 1
    for kernel in kernels:
        assert ("scf.forall" in kernel) == (kernel not in whole_sums), kernel.split("\n", 1)[0]
    [silu] = [k for k in kernels if "-> tensor<?x17x9xf32> attributes" in k.split("\n", 1)[0]]
    assert "tensor<?x?x9xf32>" in silu  # its 17 rows shared, not its symbolic batch


def test_threads_share_what_no_schedule_tiled():
    """Element-wise kernels, row-wise reductions, transposes, pads, a convolution's epilogue
    and pools split their outer parallel loop among the threads (`schedules/outer_threads.py`):
    the same bits on two threads as on one, the reference's values."""
    if openmp_missing():
        pytest.skip("libomp is not installed (apt-get install libomp-22-dev)")
    module = parse_tvmscript(SHARED, "shared.py")
    parallel = compile_module(generic_text(outlined_shared()), tile=True, parallel=True)
    for n in (1, 3, 7, 17, 130):
        args = shared_arguments(n)
        one = parallel.call("main", args, threads=1)
        two = parallel.call("main", args, threads=2)
        expected = run(module, "main", *args)
        for got_one, got_two, want in zip(one, two, expected, strict=True):
            np.testing.assert_array_equal(got_two, got_one)
            np.testing.assert_allclose(got_one, want, rtol=1e-4, atol=1e-4)
