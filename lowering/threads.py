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
order. A loop of more parts than threads takes them dynamically (`DYNAMIC_SCHEDULE`). Every
iteration computes the same values whichever thread runs it, so results do not depend on the
number of threads.

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

OPENMP_LOOPS = "convert-scf-to-openmp"
SEQUENTIAL_LOOPS = ("func.func(scf-forall-to-for)", "func.func(convert-linalg-to-loops)")
PARALLEL_LOOPS = (
    "func.func(scf-forall-to-parallel)",
    "func.func(convert-linalg-to-loops)",
    OPENMP_LOOPS,
    "canonicalize",  # inlines the alloca scopes of loop bodies before scf-to-cf splits them
)


DYNAMIC_SCHEDULE = "relax_share_dynamically"
"""The transform library's entry point (`dynamic_schedule_sequence`) run right after
``convert-scf-to-openmp`` on scheduled units (`dynamic_loop_passes`): the work-sharing loops of
more parts than threads (a direct convolution's rows, a depthwise layer's channels, a
read-out's panels of filters) take them one at a time as threads come free
(``schedule(dynamic)``; ``convert-scf-to-openmp`` makes static loops only), so that a thread
left behind, slower or preempted by another process, takes fewer parts instead of holding
the others at the region's end. A loop of one part per thread keeps the static schedule:
nothing to balance, and Debian's libomp (a debug build) spends 2–3 µs more per region in
``__kmpc_dispatch_init``. A part is computed whole by one thread, so the bits do not depend
on which thread takes it."""


def dynamic_schedule_sequence(threads: int) -> str:
    """The transform sequence `DYNAMIC_SCHEDULE` for loops shared among ``threads``: every
    ``omp.wsloop`` dynamic, but those whose bound is ``threads`` (one part per thread)."""
    return f"""
  transform.named_sequence @match_omp_loop_nest(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["omp.loop_nest"] : !op
    transform.yield %op : !op
  }}
  transform.named_sequence @keep_static_schedule(%nest: !op {{transform.readonly}}) {{
    %loop = transform.get_parent_op %nest {{op_name = "omp.wsloop"}} : (!op) -> !op
    %static = transform.param.constant #omp<schedulekind static> -> !transform.any_param
    transform.annotate %loop "schedule_kind" = %static : !op, !transform.any_param
    transform.yield
  }}
  transform.named_sequence @{DYNAMIC_SCHEDULE}(%root: !op {{transform.readonly}}) {{
    %loops = transform.structured.match ops{{["omp.wsloop"]}} in %root : (!op) -> !op
    %dynamic = transform.param.constant #omp<schedulekind dynamic> -> !transform.any_param
    transform.annotate %loops "schedule_kind" = %dynamic : !op, !transform.any_param
    %threads = transform.structured.match ops{{["arith.constant"]}}
        attributes{{value = {threads} : index}} in %root : (!op) -> !op
    transform.foreach %threads : !op {{
    ^bb0(%constant: !op):
      %users = transform.get_consumers_of_result %constant[0] : (!op) -> !op
      %kept = transform.foreach_match restrict_root in %users
          @match_omp_loop_nest -> @keep_static_schedule : (!op) -> !op
    }}
    transform.yield
  }}
"""


def dynamic_loop_passes(loops: tuple[str, ...]) -> tuple[str, ...]:
    """``loops`` (`loop_passes`) with the work-sharing loops made dynamic (`DYNAMIC_SCHEDULE`;
    units that the tiling schedule ran on: its library holds the sequence)."""
    if OPENMP_LOOPS not in loops:
        return loops
    at = loops.index(OPENMP_LOOPS) + 1
    return (*loops[:at], f"transform-interpreter{{entry-point={DYNAMIC_SCHEDULE}}}", *loops[at:])


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
