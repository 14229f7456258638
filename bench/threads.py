"""Two threads against onnxruntime with two (issue 33), in one run.

    python bench/threads.py [--repeat 5] [--models resnet18,resnet18-constant,bert] [--foreground]

ResNet-18 (224 × 224, ``from_onnx``) with its weights as parameters and as constants (batch
norms folded, packed at compile time: ``models.constant_weights``, as ``native_summary.py``
measures one thread), and the BERT-base encoder layer (1 × 128) on onnxruntime with one and
two intra-op threads and on native code (tiled) with ``--threads 1`` and ``--threads 2``, in
three rounds of ``--repeat`` calls of each (so that a
change of the machine's load falls on all of them): per engine the median CPU time (all
threads of the process) and the median wall time per call, compilation apart. Native results
on two threads must be bitwise those on one, and both must agree with onnxruntime's. The load
average is printed before and after, and the cores the machine's other processes used during
the two-thread calls (the more of either engine's): on a shared machine the two-thread wall
times mean something only when a second core is free. ``--foreground`` (Linux, as root)
gives that: the script runs in a scheduling group of its own (a new session's autogroup),
raised to nice -20 while it measures, so that the other processes get little of the cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from models import Layer, OnnxCase, cnn_case, constant_weights, layer_case, ort_session
from onnx_models import ARCHITECTURES

from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.pipeline import lower

THREADS = (1, 2)
SETTLE_SECONDS = 1.0
"""The pause before each engine's block, in which the previous engine's thread pool parks."""


def constant_case(name: str) -> OnnxCase:
    """``cnn_case(name)`` with the weights as constants: the image is the only argument."""
    case = cnn_case(name)
    module = constant_weights(ARCHITECTURES[name].model(full=True))
    return OnnxCase(module, [case.feeds["input"]], case.model, case.feeds)


MODELS: dict[str, Callable[[], OnnxCase]] = {
    "resnet18": lambda: cnn_case("resnet18"),
    "resnet18-constant": lambda: constant_case("resnet18"),
    "mobilenet": lambda: cnn_case("mobilenet"),
    "mobilenet-constant": lambda: constant_case("mobilenet"),
    "bert": lambda: layer_case(Layer("BERT-base layer 1x128", 1, 128, False)),
}


def engines(case: OnnxCase) -> dict[str, Callable[[], np.ndarray]]:
    """onnxruntime and native code on each of ``THREADS``; native code checked: the same bits
    on every number of threads, and onnxruntime's values."""
    runners: dict[str, Callable[[], np.ndarray]] = {}
    for threads in THREADS:
        session = ort_session(case.model, threads)
        runners[f"onnxruntime {threads}T"] = lambda s=session: s.run(None, case.feeds)[0]
    expected = runners["onnxruntime 1T"]()
    lowered = lower(case.module)
    results = []
    for threads in THREADS:
        options = RunOptions(tile=True, threads=threads)
        compiled = compile_function(case.module, "main", "mlir", options, lowered)
        call = lambda c=compiled: np.asarray(c(*case.args))  # noqa: E731
        runners[f"native {threads}T"] = call
        results.append(call())
        np.testing.assert_allclose(results[-1], expected, rtol=2e-3, atol=2e-3)
    for threads, result in zip(THREADS[1:], results[1:], strict=True):
        assert np.array_equal(result, results[0]), f"native: {threads} threads change the bits"
    return runners


def in_rounds(
    runners: dict[str, Callable[[], object]], repeat: int, rounds: int = 3
) -> dict[str, tuple[float, float, float]]:
    """Median (CPU, wall) seconds per call of each runner, and the cores the machine's other
    processes used during its calls: ``rounds`` rounds in which each runner makes one untimed
    call, then ``repeat`` timed ones. Calls in blocks, not in turns: the pools of onnxruntime
    and OpenMP spin for a while after a call, and in turns the spinning threads of one engine
    would count in the next one's CPU time (and a pause before each block: without it, native
    code on one thread after onnxruntime's two-thread block measured 60.6 ms on the BERT layer
    instead of 42)."""
    cpu: dict[str, list[float]] = {name: [] for name in runners}
    wall: dict[str, list[float]] = {name: [] for name in runners}
    others = dict.fromkeys(runners, 0.0)
    for _ in range(rounds):
        for name, runner in runners.items():
            time.sleep(SETTLE_SECONDS)
            runner()
            machine = machine_cpu()
            for _ in range(repeat):
                started_cpu, started = time.process_time(), time.perf_counter()
                runner()
                cpu[name].append(time.process_time() - started_cpu)
                wall[name].append(time.perf_counter() - started)
            others[name] += machine_cpu() - machine - sum(cpu[name][-repeat:])
    return {
        name: (statistics.median(cpu[name]), statistics.median(wall[name]), used / sum(wall[name]))
        for name, used in others.items()
    }


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def machine_cpu() -> float:
    """CPU seconds the whole machine has been busy (``/proc/stat``: all but idle and I/O wait)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def own_session() -> None:
    """Re-execute the script under ``setsid`` unless it leads a session: the kernel weighs a
    session's processes together (autogroups), so only the session's nice value (`priority`)
    counts against other sessions."""
    if os.getsid(0) != os.getpid():
        os.execvp("setsid", ["setsid", "--wait", sys.executable, *sys.argv])


def priority(nice: int) -> None:
    """Set the nice value of the session's scheduling group."""
    Path("/proc/self/autogroup").write_text(str(nice))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--models", default="resnet18,resnet18-constant,bert", help=", ".join(MODELS)
    )
    parser.add_argument(
        "--foreground", action="store_true", help="raise the run's scheduling group (as root)"
    )
    args = parser.parse_args()
    if args.foreground:
        own_session()
    print(f"{os.cpu_count()} CPUs; ms per call, median CPU (all threads) / median wall")
    columns = [f"{engine} {t}T" for t in THREADS for engine in ("onnxruntime", "native")]
    columns += ["native / ORT, 2T wall", "native 2T / 1T wall", "others' cores, 2T", "load after"]
    print("| model | load before | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 2) + "|")
    for name in args.models.split(","):
        runners = engines(MODELS[name]())
        before = load()
        if args.foreground:
            priority(-20)
        row = in_rounds(runners, args.repeat)
        if args.foreground:
            priority(0)
        cells = [f"{row[c][0] * 1e3:.1f} / {row[c][1] * 1e3:.1f}" for c in columns[:-4]]
        two = row[f"native {THREADS[-1]}T"][1] / row[f"onnxruntime {THREADS[-1]}T"][1]
        speedup = row[f"native {THREADS[-1]}T"][1] / row["native 1T"][1]
        others = max(row[f"{engine} {THREADS[-1]}T"][2] for engine in ("onnxruntime", "native"))
        cells += [f"{two:.2f}x", f"{speedup:.2f}", f"{others:.2f}", load()]
        print(f"| {name} | {before} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
