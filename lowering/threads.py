"""Threads in native code: the outer loops of the tiling schedule's kernels run by OpenMP.

The tiling schedule (`tiling`, `compile_module(tile=True)`) makes the outermost loop of each
kernel it transforms an ``scf.forall``: a contraction's batch dimensions (one at a time), else
its columns (one part per core), a direct convolution's output rows (one part per core; with
a fused epilogue, its tiles of one output row, `schedules/epilogue.py`); every
other operation in a function's body, its outermost parallel loop not of size 1 (one part per
core, `schedules/outer_threads.py`).
With LLVM 22's OpenMP runtime installed (``libomp.so`` next to the MLIR runtime library;
Debian's ``libomp-22-dev``) and more than one thread asked for (``RunOptions.threads``,
``relax-run --threads N``), ``scf-forall-to-parallel`` and ``convert-scf-to-openmp`` make
each such loop an ``omp.parallel`` work-sharing loop, the library links against libomp and
each call sets the number of threads (``omp_set_num_threads``); otherwise the loops run in
order. Every iteration computes the same values whichever thread runs it, so results do not
depend on the number of threads.

Only those outer loops are parallel: the loops inside them (and every loop without
``--tile``) are sequential. Parallelising all the parallel dimensions of every
operation (``convert-linalg-to-parallel-loops``) made ``convert-scf-to-openmp`` collapse them
into one iteration space whose indices are recovered by division, which stopped LLVM from
vectorising the innermost loop (2.8 times the CPU time of the sequential code on a row-wise
1024 × 768 chain, measured on this 2-core machine).
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_THREADS = 1

OPENMP_LIBRARY = "libomp.so"
APT_PACKAGE = "libomp-22-dev"

SEQUENTIAL_LOOPS = ("func.func(scf-forall-to-for)", "func.func(convert-linalg-to-loops)")
PARALLEL_LOOPS = (
    "func.func(scf-forall-to-parallel)",
    "func.func(convert-linalg-to-loops)",
    "convert-scf-to-openmp",
    "canonicalize",  # inlines the alloca scopes of loop bodies before scf-to-cf splits them
)


CALL_SPIN_MS = 200
"""How long libomp's workers spin after a parallel region of a call before they sleep
(``kmp_set_blocktime``; libomp's own default is 200 ms too). A call opens many regions (66 for
the BERT layer, 106 for ResNet-18, most of them under 0.2 ms of work): a worker still spinning
starts the next one at once, a sleeping one has to be woken through the kernel, and on a busy
machine its core has gone to another process meanwhile. After the call the shim parks them
(``relax_xdsl_park_workers``: no spin, then one empty region), so idle workers do not spin
between calls. Measured on 2 cores with the benchmark's scheduling group raised (other
processes kept to 0.1 of a core while it ran on two threads), in one process, two threads,
wall time per call: BERT layer 45.1 ms sleeping at once, 24.1 ms spinning 1 ms, 23.4 ms 10 ms,
23.7 ms 200 ms (onnxruntime 23.3 ms); ResNet-18 78.3, 47.4, 48.2, 48.0 ms; MobileNetV2 49.7,
33.4, 27.2, 25.5 ms (its gaps between regions outlast 1 ms)."""

WAIT_POLICY_VARIABLES = ("KMP_BLOCKTIME", "OMP_WAIT_POLICY")
"""The environment's say on spinning, which `call_spin_ms` leaves to libomp."""


def call_spin_ms() -> int | None:
    """The workers' spin within a call (`CALL_SPIN_MS`), unless the environment sets it."""
    return None if any(v in os.environ for v in WAIT_POLICY_VARIABLES) else CALL_SPIN_MS


def machine_cores() -> int:
    """The cores of the machine."""
    return os.cpu_count() or 1


def openmp_library(runtime: str) -> Path | None:
    """libomp in the directory of the MLIR runtime library ``runtime``, if installed."""
    library = Path(runtime).parent / OPENMP_LIBRARY
    return library if library.exists() else None


def loop_passes(runtime: str, parallel: bool) -> tuple[str, ...]:
    """How linalg operations become loops: parallel ones when asked and libomp can run them."""
    return PARALLEL_LOOPS if parallel and openmp_library(runtime) else SEQUENTIAL_LOOPS


def link_flags(runtime: str) -> tuple[str, ...]:
    """What the link needs for the OpenMP calls of parallel loops (nothing without them)."""
    library = openmp_library(runtime)
    if library is None:
        return ()
    return (f"-L{library.parent}", "-lomp", f"-Wl,-rpath,{library.parent}")
