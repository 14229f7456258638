"""Threads in native code: the parallel loops of linalg operations run by OpenMP.

With LLVM 22's OpenMP runtime installed (``libomp.so`` next to the MLIR runtime library;
Debian's ``libomp-22-dev``) and more than one thread asked for (``RunOptions.threads``,
``relax-run --threads N``), linalg operations lower to ``scf.parallel`` over their parallel
dimensions (reductions stay sequential loops inside), ``convert-scf-to-openmp`` makes each an
``omp.parallel`` work-sharing loop, the library links against libomp and each call sets the
number of threads (``omp_set_num_threads``). Every iteration computes the same values
whichever thread runs it, so results do not depend on the number of threads.

One thread is the default, and compiles sequential loops: ``convert-scf-to-openmp`` collapses
all the parallel dimensions of an operation into one iteration space whose indices are
recovered by division, which stops LLVM from vectorising the innermost loop (2.8 times the
CPU time of the sequential code on a row-wise 1024 × 768 chain, measured on this 2-core
machine). Parallelising only the outermost dimension (``scf.forall`` tiling) would fix it.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_THREADS = 1

OPENMP_LIBRARY = "libomp.so"
APT_PACKAGE = "libomp-22-dev"

SEQUENTIAL_LOOPS = ("func.func(convert-linalg-to-loops)",)
PARALLEL_LOOPS = (
    "func.func(convert-linalg-to-parallel-loops)",
    "convert-scf-to-openmp",
    "canonicalize",  # inlines the alloca scopes of loop bodies before scf-to-cf splits them
)


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
