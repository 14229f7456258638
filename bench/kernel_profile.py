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
kernel. A kernel computing a convolution or a matrix product also gives its shape
(`kernel_work.kernel_key`), and a second table sets each such shape against onnxruntime's time
in its nodes of that shape (its per-node profile, medians over the calls). With ``--cnn``,
ResNet-18 or MobileNetV2 at 224 × 224 with constant weights (``models.constant_weights``)
instead of a layer; with ``--parameters`` too, the CNN's weights are the function's
parameters (``from_onnx``'s ``params_as_inputs``, batch norms unfolded) instead of
constants. Needs Linux ``perf``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from kernel_work import (
    Known,
    call_shapes,
    convolution_key,
    kernel_bytes,
    kernel_flops,
    kernel_key,
    product_key,
    total,
)
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
from native_summary import checked
from onnx_models import ARCHITECTURES
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import LinalgStructuredOperation

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import Program, RunOptions
from relax_xdsl.lowering.backends.native import native_module
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


def kernel_calls(module: ModuleOp) -> list[func.CallOp]:
    """The calls of the host functions of ``module`` to kernels, in order."""
    calls = [op for op in module.walk() if isinstance(op, func.CallOp)]
    return [call for call in calls if call.callee.root_reference.data.startswith(KERNEL_PREFIX)]


@dataclass(frozen=True)
class Kernel:
    """A compiled kernel: its calls per inference, its last linalg operation (iterators,
    operand types, body), the `kernel_work.kernel_key` of its convolution or product (""
    without), the flops and bytes of its calls per inference (`kernel_work`; None when not
    known), and the operations of its last linalg operation's body."""

    calls: int
    text: str
    key: str
    flops: int | None
    bytes: int | None
    body: str = ""

    def __add__(self, other: Kernel) -> Kernel:
        """The calls of both."""
        flops, moved = total([self.flops, other.flops]), total([self.bytes, other.bytes])
        return replace(self, calls=self.calls + other.calls, flops=flops, bytes=moved)


def describe(function: func.FuncOp, known: Known) -> Kernel:
    """One call of a kernel, what is known of its values ``known`` (`kernel_work`)."""
    ops = [o for o in function.body.block.ops if isinstance(o, LinalgStructuredOperation)]
    op = ops[-1]
    iterators = "".join(i.data.value[0] for i in getattr(op, "iterator_types", ()))
    types = " · ".join(str(t) for t in function.function_type.inputs)
    names = {o.name.split(".")[1] for o in op.regions[0].block.ops} - {"yield", "constant"}
    body = " ".join(sorted(names))
    text = f"{op.name} {iterators} {types} [{body}]"
    key = kernel_key(function, known) or ""
    flops, moved = kernel_flops(function, known), kernel_bytes(function, known)
    return Kernel(1, text, key, flops, moved, body)


def descriptions(module: ModuleOp, arguments: Sequence[np.ndarray]) -> dict[str, Kernel]:
    """Each compiled kernel's symbol (named after its text once its constant weights are its
    arguments, `units`) → its `Kernel`, in the calls of ``@main`` on ``arguments``."""
    native_ir = native_module(Program(module))
    functions = {
        op.sym_name.data: op for op in native_ir.body.block.ops if isinstance(op, func.FuncOp)
    }
    shapes = [array.shape for array in arguments]
    _, calls = call_shapes(functions, functions["main"], shapes)
    outlined = [
        describe(functions[call.callee.root_reference.data], calls.get(call, {}))
        for call in kernel_calls(native_ir)
    ]
    split_units(native_ir, tile=True)
    found: dict[str, Kernel] = {}
    for kernel, call in zip(outlined, kernel_calls(native_ir), strict=True):
        name = call.callee.root_reference.data
        found[name] = found[name] + kernel if name in found else kernel
    return found


NCHWC_BLOCK = 16
"""onnxruntime's NCHWc layout pads a convolution's channel counts (filters, input channels
per group, outputs) up to a multiple of its vector block (16 floats with AVX-512), and its
profile gives the padded shapes."""

Convolutions = list[tuple[list[int], list[int]]]
"""A model's convolutions: the filter shape and output shape of each."""


def model_convolutions(model: bytes) -> Convolutions:
    """The filter and output shapes of the model's Conv nodes (ONNX's shape inference)."""
    import onnx

    graph = onnx.shape_inference.infer_shapes(onnx.load_from_string(model)).graph
    weights = {init.name: list(init.dims) for init in graph.initializer}
    values = {
        value.name: [d.dim_value for d in value.type.tensor_type.shape.dim]
        for value in (*graph.value_info, *graph.output)
    }
    return [
        (weights[node.input[1]], values[node.output[0]])
        for node in graph.node
        if node.op_type == "Conv" and node.input[1] in weights and node.output[0] in values
    ]


def unpadded(weight: list[int], output: list[int], convolutions: Convolutions) -> str:
    """The `convolution_key` of the one convolution of ``convolutions`` that onnxruntime's
    padded shapes ``weight`` and ``output`` can come from (`NCHWC_BLOCK`), else theirs."""

    def pads(padded: list[int], exact: list[int]) -> bool:
        return all(0 <= p - e < NCHWC_BLOCK for p, e in zip(padded, exact, strict=True))

    found = {
        convolution_key(filters, shape)
        for filters, shape in convolutions
        if filters[2:] == weight[2:] and shape[2:] == output[2:]
        and pads([weight[0], weight[1], output[1]], [filters[0], filters[1], shape[1]])
    }  # fmt: skip
    return found.pop() if len(found) == 1 else convolution_key(weight, output)


def ort_node_key(node: dict, convolutions: Convolutions) -> str:
    """The `kernel_work.operation_key` of an onnxruntime node (its profile's ``args``)
    computing a convolution (one of the model's ``convolutions``, `unpadded`) or a matrix
    product, else its operator's name."""
    op = node["op_name"]
    inputs = [next(iter(shape.values())) for shape in node["input_type_shape"]]
    [output] = node["output_type_shape"][0].values()
    if "Conv" in op:
        return f"convolution {unpadded(inputs[1], output, convolutions)}"
    if "MatMul" in op or op == "Gemm":
        rows_of_left = math.prod(output[:-1])
        depth = math.prod(inputs[0]) // rows_of_left
        if len(inputs[1]) == 2:  # a matrix: the left operand's rows are all rows
            return f"product {product_key(1, rows_of_left, depth, output[-1])}"
        return f"product {product_key(math.prod(output[:-2]), output[-2], depth, output[-1])}"
    return op


def ort_nodes(work: Workload, calls: int, milliseconds: float) -> dict[str, float]:
    """onnxruntime's ``milliseconds`` per call shared among its nodes, summed per
    `ort_node_key`, by their shares of the nodes' time in its per-node profile of ``calls``
    calls (medians per node; the profile's times are wall times, which the machine's load
    stretches)."""
    with tempfile.TemporaryDirectory() as directory:
        session = ort_session(work.onnx, profile=str(Path(directory) / "ort"))
        for _ in range(calls):
            session.run(None, work.feeds)
        events = json.loads(Path(session.end_profiling()).read_text())
    durations: dict[str, list[float]] = {}
    keys: dict[str, str] = {}
    convolutions = model_convolutions(work.onnx)
    for event in events:
        if event.get("cat") != "Node" or not event["name"].endswith("_kernel_time"):
            continue
        durations.setdefault(event["name"], []).append(event["dur"])
        keys[event["name"]] = ort_node_key(event["args"], convolutions)
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


def sample_shares(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """`profile`'s percentages of samples per row (`row_of`) and thread."""
    shares: dict[str, dict[str, float]] = {}
    for percent, tid, dso, symbol in SAMPLE.findall(profile(args)):
        if (key := row_of(dso, symbol)) is not None:
            per_thread = shares.setdefault(key, {})
            per_thread[tid] = per_thread.get(tid, 0.0) + float(percent)
    return shares


def print_against_onnxruntime(ours: dict[str, float], theirs: dict[str, float]) -> None:
    """Each kind of convolution and product: native and onnxruntime milliseconds per call,
    largest gap first."""
    print("\n| convolution (filter -> output) or product | native ms | ORT ms | native / ORT |")
    print("|---|---|---|---|")
    gaps = sorted(ours, key=lambda key: theirs.get(key, 0.0) - ours[key])
    for key in gaps:
        ort = theirs.get(key, float("nan"))
        print(f"| {key} | {ours[key]:.2f} | {ort:.2f} | {ours[key] / ort:.2f}x |")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that choose the model, and the calls (those of the profiled child)."""
    parser.add_argument("--gpt2", action="store_true")
    parser.add_argument("--cnn", choices=("resnet18", "mobilenet"))
    parser.add_argument("--parameters", action="store_true", help="the CNN's weights as parameters")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)


def compiled(work: Workload, threads: int) -> Callable[..., object]:
    """The model compiled natively, tiled, for ``threads`` threads."""
    return compile_function(work.module, "main", "mlir", RunOptions(tile=True, threads=threads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args()
    work = workload(args)
    native = compiled(work, args.threads)
    if args.child:
        for _ in range(args.calls):
            native(*work.values)
        return
    checked(lambda: native(*work.values), work.expected())
    session = ort_session(work.onnx)
    ort = median_times(args.calls, lambda: session.run(None, work.feeds))[0]
    ours = median_times(args.calls, lambda: native(*work.values))[0]
    print(f"## {work.name}: onnxruntime 1T {ort * 1e3:.1f} ms, native on {args.threads} "
          f"thread(s) {ours * 1e3:.1f} ms ({ours / ort:.2f}x), CPU time of all threads, "
          f"medians of {args.calls} calls")  # fmt: skip
    shares = sample_shares(args)
    total = sum(sum(per_thread.values()) for per_thread in shares.values())
    described = descriptions(work.module, work.values)
    keyed: dict[str, float] = {}
    print("| ms per call | share | busiest thread | kernel |\n|---|---|---|---|")
    for symbol, per_thread in sorted(shares.items(), key=lambda item: -sum(item[1].values())):
        share = sum(per_thread.values())
        busiest = max(per_thread.values()) / share
        milliseconds = ours * 1e3 * share / total
        text = symbol
        if (kernel := described.get(symbol)) is not None:
            text = f"{kernel.calls}× {kernel.text}"
            if kernel.key:
                keyed[kernel.key] = keyed.get(kernel.key, 0.0) + milliseconds
                text = f"{kernel.key}, then {text}"
        cells = [f"{milliseconds:.2f}", f"{share / total:.1%}", f"{busiest:.2f}"]
        print(f"| {' | '.join(cells)} | {text} |")
    print_against_onnxruntime(keyed, ort_nodes(work, args.calls, ort * 1e3))


if __name__ == "__main__":
    main()
