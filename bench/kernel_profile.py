"""Where native code spends a model's time, kernel by kernel (issue 33).

    python bench/kernel_profile.py [--gpt2 | --model resnet18|mobilenet] [--batch 1]
        [--calls 40] [--threads 1]

Builds the BERT-base layer (or, with ``--gpt2``, the GPT-2 block) of ``models.py``, or with
``--model`` a CNN of ``onnx_models.py`` at 224 × 224 with constant weights (the ONNX importer's
form, batch norms folded: ``models.constant_weights``), compiles it natively (tiled, one
thread), checks it against onnxruntime with one intra-op thread and times both in the same
process (medians of CPU time per call). Then it runs the
compiled model ``--calls`` times under ``perf record`` (in a child process) and shares the
native median among the outlined kernels (``lowering/kernels.py``) by their samples: each row
is one kernel, described by its calls per inference and its linalg operations (the contraction
first; iterators: ``p`` parallel, ``r`` reduction), its operand types and the operations of its
last body; libmvec's vector ``exp`` is a row of its own, and so are the C library's functions
(``memset``, ``memcpy``). With ``--threads N`` the model is compiled for OpenMP and called on N
threads; each row then also gives the busiest thread's share of the kernel's samples (1.0: the
kernel runs on one thread), the samples of a parallel loop's outlined body (``..omp_par``)
counting for its kernel. Needs Linux ``perf``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from models import (
    HIDDEN,
    LAYER_WEIGHTS,
    Layer,
    constant_weights,
    layer_onnx,
    layer_text,
    median_times,
    ort_session,
)
from models import weights as random_weights
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import LinalgStructuredOperation

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import Program, RunOptions
from relax_xdsl.lowering.backends.native import _lowered_for_native_code
from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.math_approximation import approximate_math
from relax_xdsl.lowering.units import split_units

SAMPLE = re.compile(r"^\s+([0-9.]+)%\s+(\d+):\S+\s+(\S+)\s+\[\.\]\s+(\S+)", re.MULTILINE)
PARALLEL_BODY = "..omp_par"
"""The suffix of a parallel loop's body outlined by ``mlir-translate``."""
C_LIBRARY = ("memset", "memcpy", "memmove")
"""The C library's functions that kernels call (``__memset_avx2_unaligned_erms`` and such)."""
CNNS = ("resnet18", "mobilenet")


@dataclass
class Subject:
    """What is profiled: a Relax module, its arguments, onnxruntime's model and feeds."""

    name: str
    module: ModuleOp
    args: list[np.ndarray]
    model: bytes
    feeds: dict[str, np.ndarray]


def subject_of(args: argparse.Namespace) -> Subject:
    if args.model in CNNS:
        from onnx_models import ARCHITECTURES

        model = ARCHITECTURES[args.model].model(full=True)
        image = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
        name = f"{args.model}, constant weights"
        return Subject(name, constant_weights(model), [image], model.SerializeToString(),
                       {"input": image})  # fmt: skip
    name = "GPT-2 block" if args.gpt2 else "BERT-base layer"
    layer = Layer(f"{name} {args.batch}x128", args.batch, 128, args.gpt2)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((layer.batch, layer.seq, HIDDEN)).astype(np.float32)
    values = [x, *(random_weights(rng, shape) for _, shape in LAYER_WEIGHTS)]
    module = parse_tvmscript(layer_text(layer), f"{layer.name}.py")
    feeds = dict(zip(["x", *(name for name, _ in LAYER_WEIGHTS)], values, strict=True))
    return Subject(layer.name, module, values, layer_onnx(layer), feeds)


def descriptions(subject: Subject) -> dict[str, str]:
    """Each compiled kernel's symbol (after `units.split_units`, which renames a kernel whose
    weights become arguments) → its calls per inference, its linalg operations (the
    contraction first), operand types and last body."""
    module = approximate_math(_lowered_for_native_code(Program(subject.module)))
    outline_kernels(module)
    kernels = [
        op
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp) and op.sym_name.data.startswith(KERNEL_PREFIX)
    ]
    described = [(kernel, _description(kernel)) for kernel in kernels]
    split_units(module, tile=True)
    calls = Counter(op.callee.string_value() for op in module.walk() if isinstance(op, func.CallOp))
    found: dict[str, str] = {}
    for kernel, text in described:
        symbol = kernel.sym_name.data
        found.setdefault(symbol, f"{calls[symbol]}× {text}")
    return found


def _description(kernel: func.FuncOp) -> str:
    ops = [o for o in kernel.body.walk() if isinstance(o, LinalgStructuredOperation)]
    ops.sort(key=lambda o: "reduction" not in str(getattr(o, "iterator_types", "")))
    op = ops[0]
    iterators = "".join(i.data.value[0] for i in getattr(op, "iterator_types", ()))
    names = " ".join(o.name.removeprefix("linalg.") for o in ops)
    types = " · ".join(str(t) for t in kernel.function_type.inputs)
    body = {o.name.split(".")[1] for o in ops[-1].regions[0].block.ops} - {"yield", "constant"}
    return f"{names} {iterators} {types} [{' '.join(sorted(body))}]"


def profile(args: argparse.Namespace) -> str:
    """``perf report`` of a child process calling the model ``--calls`` times."""
    with tempfile.TemporaryDirectory() as work:
        data = str(Path(work) / "perf.data")
        child = [sys.executable, __file__, "--child", f"--batch={args.batch}"]
        child += [f"--calls={args.calls}", f"--threads={args.threads}"]
        child += ["--gpt2"] if args.gpt2 else []
        child += [f"--model={args.model}"] if args.model else []
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpt2", action="store_true")
    parser.add_argument("--model", choices=CNNS)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    subject = subject_of(args)
    options = RunOptions(tile=True, threads=args.threads)
    native = compile_function(subject.module, "main", "mlir", options)
    if args.child:
        for _ in range(args.calls):
            native(*subject.args)
        return
    session = ort_session(subject.model)
    expected = session.run(None, subject.feeds)[0]
    actual = np.asarray(native(*subject.args))
    np.testing.assert_allclose(actual, expected, rtol=2e-3, atol=2e-3)
    ort = median_times(args.calls, lambda: session.run(None, subject.feeds))[0]
    ours = median_times(args.calls, lambda: native(*subject.args))[0]
    print(f"## {subject.name}: onnxruntime 1T {ort * 1e3:.1f} ms, native on {args.threads} "
          f"thread(s) {ours * 1e3:.1f} ms ({ours / ort:.2f}x), CPU time of all threads, "
          f"medians of {args.calls} calls")  # fmt: skip
    shares: dict[str, dict[str, float]] = {}
    for percent, tid, dso, symbol in SAMPLE.findall(profile(args)):
        if (key := row_of(dso, symbol)) is not None:
            per_thread = shares.setdefault(key, {})
            per_thread[tid] = per_thread.get(tid, 0.0) + float(percent)
    total = sum(sum(per_thread.values()) for per_thread in shares.values())
    described = descriptions(subject)
    print("| ms per call | share | busiest thread | kernel |\n|---|---|---|---|")
    for symbol, per_thread in sorted(shares.items(), key=lambda item: -sum(item[1].values())):
        share = sum(per_thread.values())
        busiest = max(per_thread.values()) / share
        cells = [f"{ours * 1e3 * share / total:.2f}", f"{share / total:.1%}", f"{busiest:.2f}"]
        print(f"| {' | '.join(cells)} | {described.get(symbol, symbol)} |")


if __name__ == "__main__":
    main()
