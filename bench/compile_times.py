"""Compile times of native code (issue 33): cold and warm, per model, as units and as one.

    python bench/compile_times.py [--models resnet18,mobilenet,bert,chain] [--chain 5000]
                                  [--untiled] [--whole] [--no-parts] [--constants]
                                  [--weights-inside] [--idle-estimate]

Models: ResNet-18, MobileNetV2 and the BERT-base layer of ``onnx_models.py`` at full size
through our ONNX importer (weights as parameters), and the MLP chain of ``workloads.py``
(``--chain`` bindings). Per model, with an empty cache (a temporary ``XDG_CACHE_HOME``): *cold*
is ``compile_function(..., "mlir")`` from the Relax module, lowering included (its wall time;
the CPU time of the toolchain processes and of Python apart), *warm* the same call again (the
library found by the Relax module, ``program_cache``; wall and CPU time); *load* the load
average after the model (the machine is shared). ``--whole`` compiles every model as one unit
at ``-O3`` (the compilation before units, for a before/after in one run); ``--no-parts`` keeps
long host functions whole (before ``host_parts``); ``--untiled`` without tiling;
``--constants`` imports the ONNX models with their weights as constants (batch norms folded
into them, as ``models.py`` runs them); ``--weights-inside`` keeps each kernel's constant
weights inside it, one kernel per layer (before ``weight_arguments``). ``--idle-estimate`` adds
the cold compile's wall time on two idle cores, for a loaded machine: each tool process's CPU
time is recorded (``/usr/bin/time``) in a cold compile, and ``compile_units``' schedule replayed
with them (two workers: each batch of units, then the signatures, then the link), plus the
Python CPU before the first tool and half of that while the tools run (it shares the cores).

The first model's cold compile imports the lowering's modules. Measure with the sources
byte-compiled (``python -m compileall -q relax_dialect lowering tools``), as ``pip install .``
leaves them: an editable install under ``PYTHONDONTWRITEBYTECODE`` compiles them at every
import (0.25 s of ResNet-18's cold compile, docs/benchmarks.md); the script says when they are
not.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import sys
import tempfile
import threading
import time

import models
import onnx_models
import workloads
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering import host_parts, toolchain, units
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions


def model(name: str, chain: int, constants: bool) -> ModuleOp:
    if name == "chain":
        return parse_tvmscript(workloads.tvmscript("mlp", chain), "chain.py")
    onnx_model = onnx_models.ARCHITECTURES[name].model(full=True)
    if constants:
        return models.constant_weights(onnx_model)
    return from_onnx(onnx_model, params_as_inputs=True)


def cpu() -> tuple[float, float]:
    """CPU seconds of the finished child processes and of this one."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = resource.getrusage(resource.RUSAGE_SELF)
    return children.ru_utime + children.ru_stime, own.ru_utime + own.ru_stime


def measure(module: ModuleOp, tile: bool) -> dict[str, float]:
    options = RunOptions(tile=tile)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        tools, python = cpu()
        start = time.perf_counter()
        compile_function(module, "main", "mlir", options)
        cold = time.perf_counter() - start
        tools_after, python_after = cpu()
        start = time.perf_counter()
        compile_function(module, "main", "mlir", options)
        warm = time.perf_counter() - start
        warm_cpu = cpu()[1] - python_after
    return {
        "cold": cold,
        "tools": tools_after - tools,
        "python": python_after - python,
        "warm": warm,
        "warm CPU": warm_cpu,
        "load": os.getloadavg()[0],
    }


class ToolTimes:
    """Records the CPU time of each tool process by the compile step that ran it."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, list[str], float]] = []  # kind, units, CPU seconds
        self.first_tool: float | None = None
        self._step = threading.local()

    def run(self, argv, stdin=None):
        if self.first_tool is None:
            self.first_tool = time.process_time()
        with tempfile.NamedTemporaryFile("r") as times:
            output = RUN(["/usr/bin/time", "-f", "%U %S", "-o", times.name, *argv], stdin)
            cpu = sum(map(float, times.read().split()[-2:]))
            self._step.cpu = getattr(self._step, "cpu", 0.0) + cpu
        return output

    def step(self, kind: str, step, names):
        def timed(*args):
            self._step.cpu = 0.0
            result = step(*args)
            self.steps.append((kind, names(*args), self._step.cpu))
            return result

        return timed

    def replayed(self) -> float:
        """The tools' wall time on two idle cores, in ``compile_units``' order: each batch
        (in order) on the first worker free, then the signatures, then the link."""
        signatures = [cpu for kind, _, cpu in self.steps if kind == "signatures"]
        batches = [(names, cpu) for kind, names, cpu in self.steps if kind == "batch"]
        batches.sort(key=lambda batch: (batch[0][0] not in ("host", "module"), -len(batch[0])))
        workers = [0.0, 0.0]
        for cpu in [cpu for _, cpu in batches] + signatures:
            worker = workers.index(min(workers))
            workers[worker] += cpu
        return max(workers) + sum(cpu for kind, _, cpu in self.steps if kind == "link")


RUN = toolchain._run


def idle_estimate(module: ModuleOp, tile: bool) -> float:
    """The cold compile's wall time on two idle cores (``--idle-estimate``)."""
    times = ToolTimes()
    steps = {
        "_compile_batch": (
            "batch",
            lambda tools, batch, *_: [unit.name for unit in batch.values()],
        ),
        "_signatures": ("signatures", lambda *_: []),
        "_data_objects": ("link", lambda *_: []),
        "_link": ("link", lambda *_: []),
    }
    saved = {name: getattr(toolchain, name) for name in [*steps, "_run"]}
    toolchain._run = times.run
    for name, (kind, names) in steps.items():
        setattr(toolchain, name, times.step(kind, saved[name], names))
    try:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["XDG_CACHE_HOME"] = cache
            toolchain._host(toolchain.find_toolchain())
            times.first_tool = None
            start = time.process_time()
            compile_function(module, "main", "mlir", RunOptions(tile=tile))
            end = time.process_time()
    finally:
        for name, step in saved.items():
            setattr(toolchain, name, step)
    first = times.first_tool if times.first_tool is not None else end
    return (first - start) + times.replayed() + (end - first) / 2


def byte_compiled() -> bool:
    """Whether the lowering's modules are imported from bytecode."""
    return all(
        os.path.exists(importlib.util.cache_from_source(module.__file__))
        for module in (toolchain, units, host_parts)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="resnet18,mobilenet,bert,chain")
    parser.add_argument("--chain", type=int, default=5000)
    parser.add_argument("--untiled", action="store_true")
    parser.add_argument("--whole", action="store_true")
    parser.add_argument("--no-parts", action="store_true")
    parser.add_argument("--constants", action="store_true")
    parser.add_argument("--weights-inside", action="store_true")
    parser.add_argument("--idle-estimate", action="store_true")
    args = parser.parse_args()
    if args.weights_inside:
        units.pass_weights = lambda unit, stub, calls: stub.sym_name.data
    if args.whole:
        units.SPLIT_FROM_KERNELS = sys.maxsize
        units.KERNEL_LEVEL = "-O3"
    if args.no_parts:
        host_parts.PART_OPS = host_parts.LONGEST_PART = sys.maxsize
    if not byte_compiled():
        print("(sources not byte-compiled: `python -m compileall -q relax_dialect lowering tools`)")
    columns = "| model | cold (wall) | toolchain CPU | Python CPU | warm (wall) | warm (CPU) |"
    print(columns + (" idle estimate |" if args.idle_estimate else "") + " load |")
    print("|---" * (8 if args.idle_estimate else 7) + "|")
    for name in args.models.split(","):
        module = model(name, args.chain, args.constants)
        row = measure(module, not args.untiled)
        idle = f" {idle_estimate(module, not args.untiled):.1f} s |" if args.idle_estimate else ""
        print(
            f"| {name} | {row['cold']:.1f} s | {row['tools']:.1f} s | {row['python']:.1f} s "
            f"| {row['warm']:.2f} s | {row['warm CPU']:.2f} s |{idle} {row['load']:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
