"""Compile times of native code (issue 33): cold and warm, per model, as units and as one.

    python bench/compile_times.py [--models resnet18,mobilenet,bert,chain] [--chain 5000]
                                  [--untiled] [--whole] [--no-parts] [--constants]
                                  [--weights-inside]

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
weights inside it, one kernel per layer (before ``weight_arguments``).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time

import models
import onnx_models
import workloads
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering import host_parts, units
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="resnet18,mobilenet,bert,chain")
    parser.add_argument("--chain", type=int, default=5000)
    parser.add_argument("--untiled", action="store_true")
    parser.add_argument("--whole", action="store_true")
    parser.add_argument("--no-parts", action="store_true")
    parser.add_argument("--constants", action="store_true")
    parser.add_argument("--weights-inside", action="store_true")
    args = parser.parse_args()
    if args.weights_inside:
        units.pass_weights = lambda unit, host, stub: stub.sym_name.data
    if args.whole:
        units.SPLIT_FROM_KERNELS = sys.maxsize
        units.KERNEL_LEVEL = "-O3"
    if args.no_parts:
        host_parts.PART_OPS = host_parts.LONGEST_PART = sys.maxsize
    print("| model | cold (wall) | toolchain CPU | Python CPU | warm (wall) | warm (CPU) | load |")
    print("|---|---|---|---|---|---|---|")
    for name in args.models.split(","):
        row = measure(model(name, args.chain, args.constants), not args.untiled)
        print(
            f"| {name} | {row['cold']:.1f} s | {row['tools']:.1f} s | {row['python']:.1f} s "
            f"| {row['warm']:.2f} s | {row['warm CPU']:.2f} s | {row['load']:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
