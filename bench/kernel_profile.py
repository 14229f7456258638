"""Where native code spends a model's time, kernel by kernel (issue 33).

    python bench/kernel_profile.py [--gpt2 | --cnn resnet18|mobilenet [--parameters]] [--batch 1]
        [--calls 40] [--threads 1]

Builds the BERT-base layer (or, with ``--gpt2``, the GPT-2 block) of ``models.py``, compiles it
natively (tiled, one thread), checks it against NumPy, and times it against onnxruntime with
one intra-op thread in the same process (medians of CPU time per call). Then it runs the
compiled layer ``--calls`` times under ``perf record`` (in a child process) and shares the
native median among the outlined kernels (``lowering/kernels.py``) by their samples: each row
is one kernel, described by its calls per inference, its linalg operation (iterators: ``p``
parallel, ``r`` reduction), its operand types and the operations of its body; libmvec's vector
``exp`` is a row of its own, and so are the C library's memory functions (``memset``,
``memcpy``). With ``--threads N`` the layer is compiled for OpenMP and called on N threads; each row
then also gives the busiest thread's share of the kernel's samples (1.0: the kernel runs on
one thread), the samples of a parallel loop's outlined body (``..omp_par``) counting for its
kernel. With ``--cnn``, ResNet-18 or MobileNetV2 at 224 × 224 with constant weights
(``models.constant_weights``) instead: each row also gives the convolution's filter and output
shapes, and a second table sets each kind of convolution (same filter and output shapes)
against onnxruntime's time in its Conv nodes (its per-node profile, medians over the calls).
With ``--parameters`` too, the CNN's weights are the function's parameters (``from_onnx``'s
``params_as_inputs``, batch norms unfolded) instead of constants. Needs Linux ``perf``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from models import (
    HIDDEN,
    LAYER_WEIGHTS,
    Layer,
    cnn_case,
    constant_weights,
    layer_numpy,
    layer_onnx,
    layer_text,
    median_times,
    ort_session,
)
from models import weights as random_weights
from onnx_models import ARCHITECTURES
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import LinalgStructuredOperation

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import Program, RunOptions
from relax_xdsl.lowering.backends.native import kernel_module
from relax_xdsl.lowering.kernels import KERNEL_PREFIX
from relax_xdsl.lowering.units import split_units

SAMPLE = re.compile(r"^\s+([0-9.]+)%\s+(\d+):\S+\s+(\S+)\s+\[\.\]\s+(\S+)", re.MULTILINE)
PARALLEL_BODY = "..omp_par"
"""The suffix of a parallel loop's body outlined by ``mlir-translate``."""
C_LIBRARY = ("memset", "memcpy", "memmove")
"""The C library's functions that kernels call (``__memset_avx2_unaligned_erms`` and such)."""


@dataclass
class Workload:
    """A model twice: a Relax module with its arguments, and ONNX bytes with onnxruntime's
    feeds (the same values); ``expected`` computes the reference result."""

    name: str
    module: ModuleOp
    values: list[np.ndarray]
    onnx: bytes
    feeds: dict[str, np.ndarray]
    expected: Callable[[], np.ndarray]


def workload(args: argparse.Namespace) -> Workload:
    """The transformer layer of ``--gpt2``/``--batch``, or the CNN of ``--cnn``."""
    if args.cnn and args.parameters:
        case = cnn_case(args.cnn)
        expected = lambda: ort_session(case.model).run(None, case.feeds)[0]  # noqa: E731
        name = f"{args.cnn}, weights as parameters"
        return Workload(name, case.module, case.args, case.model, case.feeds, expected)
    if args.cnn:
        model = ARCHITECTURES[args.cnn].model(full=True)
        image = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
        onnx, feeds = model.SerializeToString(), {"input": image}
        expected = lambda: ort_session(onnx).run(None, feeds)[0]  # noqa: E731
        name = f"{args.cnn}, constant weights"
        return Workload(name, constant_weights(model), [image], onnx, feeds, expected)
    kind = "GPT-2 block" if args.gpt2 else "BERT-base layer"
    layer = Layer(f"{kind} {args.batch}x128", args.batch, 128, args.gpt2)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((layer.batch, layer.seq, HIDDEN)).astype(np.float32)
    values = [x, *(random_weights(rng, shape) for _, shape in LAYER_WEIGHTS)]
    module = parse_tvmscript(layer_text(layer), f"{layer.name}.py")
    feeds = dict(zip(["x", *(name for name, _ in LAYER_WEIGHTS)], values, strict=True))
    expected = lambda: layer_numpy(layer)(*values)  # noqa: E731
    return Workload(layer.name, module, values, layer_onnx(layer), feeds, expected)


def convolution_key(filters: Sequence[int], output: Sequence[int]) -> str:
    """A convolution's filter shape and output shape but the batch, ``64x64x3x3 -> 64x56x56``
    (a grouped one's groups and filters per group as its filters, as ONNX writes them)."""
    if len(filters) == 5:
        groups, per_group, *window = filters
        filters = [groups * per_group, *window]
        output = [output[0], output[1] * output[2], *output[3:]]
    return "x".join(map(str, filters)) + " -> " + "x".join(map(str, output[1:]))


def kernel_calls(module: ModuleOp) -> list[str]:
    """The kernels the host functions of ``module`` call, in order."""
    calls = [op for op in module.walk() if isinstance(op, func.CallOp)]
    names = [call.callee.root_reference.data for call in calls]
    return [name for name in names if name.startswith(KERNEL_PREFIX)]


def descriptions(module: ModuleOp) -> dict[str, tuple[str, str]]:
    """Each compiled kernel's symbol (named after its text once its constant weights are its
    arguments, `units`) → its calls per inference, linalg operation, operand types and body,
    and its convolution's `convolution_key` (empty without one)."""
    native_ir = kernel_module(Program(module))
    found = {}
    for function in native_ir.body.block.ops:
        if not isinstance(function, func.FuncOp):
            continue
        if not function.sym_name.data.startswith(KERNEL_PREFIX):
            continue
        ops = [o for o in function.body.block.ops if isinstance(o, LinalgStructuredOperation)]
        op = ops[-1]
        iterators = "".join(i.data.value[0] for i in getattr(op, "iterator_types", ()))
        types = " · ".join(str(t) for t in function.function_type.inputs)
        body = {o.name.split(".")[1] for o in op.regions[0].block.ops} - {"yield", "constant"}
        convolutions = [
            convolution_key(o.inputs[1].type.get_shape(), o.outputs[0].type.get_shape())  # pyright: ignore
            for o in ops
            if "conv" in o.name
        ]
        text = f"{op.name} {iterators} {types} [{' '.join(sorted(body))}]"
        found[function.sym_name.data] = (text, convolutions[0] if convolutions else "")
    outlined = kernel_calls(native_ir)
    split_units(native_ir, tile=True)
    compiled = kernel_calls(native_ir)
    calls = Counter(compiled)
    described = {}
    for old, new in zip(outlined, compiled, strict=True):
        text, key = found[old]
        described[new] = (f"{calls[new]}× {text}", key)
    return described


def ort_convolutions(work: Workload, calls: int, milliseconds: float) -> dict[str, float]:
    """onnxruntime's ``milliseconds`` per call shared among its Conv nodes, summed per
    `convolution_key`, by their shares of the nodes' time in its per-node profile of ``calls``
    calls (medians per node; the profile's times are wall times, which the machine's load
    stretches)."""
    with tempfile.TemporaryDirectory() as directory:
        session = ort_session(work.onnx, profile=str(Path(directory) / "ort"))
        for _ in range(calls):
            session.run(None, work.feeds)
        events = json.loads(Path(session.end_profiling()).read_text())
    durations: dict[str, list[float]] = {}
    keys: dict[str, str] = {}
    for event in events:
        if event.get("cat") != "Node" or not event["name"].endswith("_kernel_time"):
            continue
        durations.setdefault(event["name"], []).append(event["dur"])
        node = event["args"]
        if "Conv" in node["op_name"]:
            [weight] = node["input_type_shape"][1].values()
            [output] = node["output_type_shape"][0].values()
            keys[event["name"]] = convolution_key(weight, output)
    medians = {node: statistics.median(times) for node, times in durations.items()}
    total = sum(medians.values())
    found: dict[str, float] = {}
    for node, key in keys.items():
        found[key] = found.get(key, 0.0) + milliseconds * medians[node] / total
    return found


def profile(args: argparse.Namespace) -> str:
    """``perf report`` of a child process calling the model ``--calls`` times."""
    with tempfile.TemporaryDirectory() as work:
        data = str(Path(work) / "perf.data")
        child = [sys.executable, __file__, "--child", f"--batch={args.batch}"]
        child += [f"--calls={args.calls}", f"--threads={args.threads}"]
        child += ["--gpt2"] if args.gpt2 else []
        child += [f"--cnn={args.cnn}"] if args.cnn else []
        child += ["--parameters"] if args.parameters else []
        subprocess.run(["perf", "record", "-q", "-F", "1000", "-o", data, *child], check=True)
        report = ["perf", "report", "-i", data, "--no-children", "--sort", "pid,dso,symbol"]
        return subprocess.run([*report, "-g", "none"], capture_output=True, text=True).stdout


def row_of(dso: str, symbol: str) -> str | None:
    """The table's row of a sample in ``symbol`` of ``dso``: its kernel, libmvec's function,
    the C library's memory function, or None (Python, loading)."""
    if symbol.startswith(KERNEL_PREFIX):
        return symbol.split(PARALLEL_BODY)[0]
    if dso.startswith("libmvec"):
        return f"libmvec {symbol}"
    if dso.startswith("libc") and any(name in symbol for name in C_LIBRARY):
        return f"libc {symbol}"
    return None


def print_convolutions(ours: dict[str, float], theirs: dict[str, float]) -> None:
    """Each kind of convolution: native and onnxruntime milliseconds per call, largest gap
    first."""
    print("\n| convolutions (filter -> output) | native ms | onnxruntime ms | native / ORT |")
    print("|---|---|---|---|")
    gaps = sorted(ours, key=lambda key: theirs.get(key, 0.0) - ours[key])
    for key in gaps:
        ort = theirs.get(key, float("nan"))
        print(f"| {key} | {ours[key]:.2f} | {ort:.2f} | {ours[key] / ort:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpt2", action="store_true")
    parser.add_argument("--cnn", choices=("resnet18", "mobilenet"))
    parser.add_argument("--parameters", action="store_true", help="the CNN's weights as parameters")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    work = workload(args)
    options = RunOptions(tile=True, threads=args.threads)
    native = compile_function(work.module, "main", "mlir", options)
    if args.child:
        for _ in range(args.calls):
            native(*work.values)
        return
    result = np.asarray(native(*work.values))
    np.testing.assert_allclose(result, work.expected(), rtol=2e-3, atol=2e-3)
    session = ort_session(work.onnx)
    ort = median_times(args.calls, lambda: session.run(None, work.feeds))[0]
    ours = median_times(args.calls, lambda: native(*work.values))[0]
    print(f"## {work.name}: onnxruntime 1T {ort * 1e3:.1f} ms, native on {args.threads} "
          f"thread(s) {ours * 1e3:.1f} ms ({ours / ort:.2f}x), CPU time of all threads, "
          f"medians of {args.calls} calls")  # fmt: skip
    shares: dict[str, dict[str, float]] = {}
    for percent, tid, dso, symbol in SAMPLE.findall(profile(args)):
        if (key := row_of(dso, symbol)) is not None:
            per_thread = shares.setdefault(key, {})
            per_thread[tid] = per_thread.get(tid, 0.0) + float(percent)
    total = sum(sum(per_thread.values()) for per_thread in shares.values())
    described = descriptions(work.module)
    convolutions: dict[str, float] = {}
    print("| ms per call | share | busiest thread | kernel |\n|---|---|---|---|")
    for symbol, per_thread in sorted(shares.items(), key=lambda item: -sum(item[1].values())):
        share = sum(per_thread.values())
        busiest = max(per_thread.values()) / share
        milliseconds = ours * 1e3 * share / total
        text, key = described.get(symbol, (symbol, ""))
        if key:
            convolutions[key] = convolutions.get(key, 0.0) + milliseconds
            text = f"convolution {key}, then {text}"
        cells = [f"{milliseconds:.2f}", f"{share / total:.1%}", f"{busiest:.2f}"]
        print(f"| {' | '.join(cells)} | {text} |")
    if args.cnn:
        print_convolutions(convolutions, ort_convolutions(work, args.calls, ort * 1e3))


if __name__ == "__main__":
    main()
