"""Where native code spends a transformer layer's time, kernel by kernel (issue 33).

    python bench/kernel_profile.py [--gpt2] [--batch 1] [--calls 40] [--threads 1]

Builds the BERT-base layer (or, with ``--gpt2``, the GPT-2 block) of ``models.py``, compiles it
natively (tiled, one thread), checks it against NumPy, and times it against onnxruntime with
one intra-op thread in the same process (medians of CPU time per call). Then it runs the
compiled layer ``--calls`` times under ``perf record`` (in a child process) and shares the
native median among the outlined kernels (``lowering/kernels.py``) by their samples: each row
is one kernel, described by its linalg operation (iterators: ``p`` parallel, ``r`` reduction),
its operand types and the operations of its body; libmvec's vector ``exp`` is a row of its
own. With ``--threads N`` the layer is compiled for OpenMP and called on N threads; each row
then also gives the busiest thread's share of the kernel's samples (1.0: the kernel runs on
one thread), the samples of a parallel loop's outlined body (``..omp_par``) counting for its
kernel. Needs Linux ``perf``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from models import HIDDEN, LAYER_WEIGHTS, Layer, layer_numpy, layer_onnx, layer_text, median_times
from models import weights as random_weights
from xdsl.dialects import func
from xdsl.dialects.linalg.ops import LinalgStructuredOperation

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.math_approximation import approximate_math
from relax_xdsl.lowering.pipeline import lower

SAMPLE = re.compile(r"^\s+([0-9.]+)%\s+(\d+):\S+\s+(\S+)\s+\[\.\]\s+(\S+)", re.MULTILINE)
PARALLEL_BODY = "..omp_par"
"""The suffix of a parallel loop's body outlined by ``mlir-translate``."""


def layer_of(args: argparse.Namespace) -> Layer:
    name = "GPT-2 block" if args.gpt2 else "BERT-base layer"
    return Layer(f"{name} {args.batch}x128", args.batch, 128, args.gpt2)


def inputs(layer: Layer) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((layer.batch, layer.seq, HIDDEN)).astype(np.float32)
    return [x, *(random_weights(rng, shape) for _, shape in LAYER_WEIGHTS)]


def compiled_layer(layer: Layer, threads: int):
    module = parse_tvmscript(layer_text(layer), f"{layer.name}.py")
    options = RunOptions(tile=True, threads=threads)
    return compile_function(module, "main", "mlir", options, lower(module))


def descriptions(layer: Layer) -> dict[str, str]:
    """Each outlined kernel's symbol → its linalg operation, operand types and body."""
    module = parse_tvmscript(layer_text(layer), f"{layer.name}.py")
    native_ir = approximate_math(lower(module))
    outline_kernels(native_ir)
    found = {}
    for function in native_ir.body.block.ops:
        if not isinstance(function, func.FuncOp):
            continue
        if not function.sym_name.data.startswith(KERNEL_PREFIX):
            continue
        op = [o for o in function.body.block.ops if isinstance(o, LinalgStructuredOperation)][-1]
        iterators = "".join(i.data.value[0] for i in getattr(op, "iterator_types", ()))
        types = " · ".join(str(t) for t in function.function_type.inputs)
        body = {o.name.split(".")[1] for o in op.regions[0].block.ops} - {"yield", "constant"}
        found[function.sym_name.data] = f"{op.name} {iterators} {types} [{' '.join(sorted(body))}]"
    return found


def profile(args: argparse.Namespace) -> str:
    """``perf report`` of a child process calling the layer ``--calls`` times."""
    with tempfile.TemporaryDirectory() as work:
        data = str(Path(work) / "perf.data")
        child = [sys.executable, __file__, "--child", f"--batch={args.batch}"]
        child += [f"--calls={args.calls}", f"--threads={args.threads}"]
        child += ["--gpt2"] if args.gpt2 else []
        subprocess.run(["perf", "record", "-q", "-F", "1000", "-o", data, *child], check=True)
        report = ["perf", "report", "-i", data, "--no-children", "--sort", "pid,dso,symbol"]
        return subprocess.run([*report, "-g", "none"], capture_output=True, text=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpt2", action="store_true")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    layer = layer_of(args)
    values = inputs(layer)
    native = compiled_layer(layer, args.threads)
    if args.child:
        for _ in range(args.calls):
            native(*values)
        return
    expected = layer_numpy(layer)(*values)
    np.testing.assert_allclose(np.asarray(native(*values)), expected, rtol=2e-3, atol=2e-3)
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = 1, 1
    session = onnxruntime.InferenceSession(layer_onnx(layer), options)
    feeds = dict(zip(["x", *(name for name, _ in LAYER_WEIGHTS)], values, strict=True))
    ort = median_times(args.calls, lambda: session.run(None, feeds))[0]
    ours = median_times(args.calls, lambda: native(*values))[0]
    print(f"## {layer.name}: onnxruntime 1T {ort * 1e3:.1f} ms, native on {args.threads} "
          f"thread(s) {ours * 1e3:.1f} ms ({ours / ort:.2f}x), CPU time of all threads, "
          f"medians of {args.calls} calls")  # fmt: skip
    shares: dict[str, dict[str, float]] = {}
    for percent, tid, dso, symbol in SAMPLE.findall(profile(args)):
        if symbol.startswith(KERNEL_PREFIX) or dso.startswith("libmvec"):
            key = symbol.split(PARALLEL_BODY)[0]
            key = key if key.startswith(KERNEL_PREFIX) else f"libmvec {key}"
            per_thread = shares.setdefault(key, {})
            per_thread[tid] = per_thread.get(tid, 0.0) + float(percent)
    total = sum(sum(per_thread.values()) for per_thread in shares.values())
    described = descriptions(layer)
    print("| ms per call | share | busiest thread | kernel |\n|---|---|---|---|")
    for symbol, per_thread in sorted(shares.items(), key=lambda item: -sum(item[1].values())):
        share = sum(per_thread.values())
        busiest = max(per_thread.values()) / share
        cells = [f"{ours * 1e3 * share / total:.2f}", f"{share / total:.1%}", f"{busiest:.2f}"]
        print(f"| {' | '.join(cells)} | {described.get(symbol, symbol)} |")


if __name__ == "__main__":
    main()
