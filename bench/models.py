"""Two models on every backend, against hand-written NumPy; real CNNs against onnxruntime.

    python bench/models.py [--batch 256] [--seq 128] [--layers 2] [--repeat 5]
    TVM_PYTHON=/path/to/tvmenv/bin/python python bench/models.py --cnn [--repeat 7]

*MLP*: three dense layers (512 → 1024 → 1024 → 256, ReLU between) on a batch of
symbolic size ``n``. *Transformer*: ``--layers`` pre-norm decoder layers
(``d_model = 256``, 4 heads, causal ``R.nn.attention``, RMS norm, layer norm, a
SiLU-gated MLP of width 1024, residuals) on a sequence of symbolic length ``s``.
Both are TVMScript text with the weights as parameters.

With ``--cnn``: ResNet-18 and MobileNetV2 at batch 1 (224×224), built with
``onnx_models.py`` (random weights), imported by TVM 0.25 (``tvm_import.py`` under
``$TVM_PYTHON``) and run natively untiled and tiled, and on IREE when installed, against
onnxruntime with one and two intra-op threads: the median CPU time per call of ``--repeat``
calls (compilation apart; the process's CPU time, so that other load on a shared machine
counts less), every result checked against onnxruntime's. The same models imported by the
project's ONNX importer with their weights as constants (batch norms folded into them) run
tiled too, their weights packed at compile time (``lowering/prepacked_weights.py``).

Per model: *lower* is ``relax-lower-to-linalg`` (a fresh clone each time; bindings/s
is the lowering throughput), *compile* the MLIR toolchain on an empty cache (untiled
and ``tile=True``); *run* times are the best of ``--repeat`` calls of the reference
interpreter, the bundled interpreter of the lowered IR, native code untiled and tiled
(single-threaded), and the NumPy version (every backend's result is first checked against
NumPy); run it with ``OPENBLAS_NUM_THREADS=1`` to compare with NumPy on one thread too.
With the extra ``relax-xdsl[iree]``, a second table puts IREE (its ``local-task`` device,
a thread pool) beside native code: compile times on an empty cache and run times.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import platform
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from timing import best_of
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.numerics.arithmetic import erf
from relax_dialect.ops.dataflow import DataflowOp
from relax_dialect.ops.functions import FunctionOp
from relax_xdsl.lowering.backends import backend_named, compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.pipeline import LowerToLinalgPass, lower
from relax_xdsl.lowering.toolchain import generic_text

HEADER = "from tvm.script import ir as I, relax as R, tirx as T\n\n\n@I.ir_module\nclass Module:\n"
MLP_SIZES = (512, 1024, 1024, 256)
D_MODEL, HEADS, FFN = 256, 4, 1024
EPS = 1e-5


def mlp_text() -> str:
    a, b, c, d = MLP_SIZES
    shapes = [("w1", (a, b)), ("b1", (b,)), ("w2", (b, c)), ("b2", (c,))]
    shapes += [("w3", (c, d)), ("b3", (d,))]
    params = [f'x: R.Tensor(("n", {a}), "float32")']
    params += [f'{name}: R.Tensor({shape}, "float32")' for name, shape in shapes]
    return (
        HEADER
        + f"""    @R.function
    def main({", ".join(params)}) -> R.Tensor(("n", {d}), "float32"):
        with R.dataflow():
            h1 = R.nn.relu(R.add(R.matmul(x, w1), b1))
            h2 = R.nn.relu(R.add(R.matmul(h1, w2), b2))
            out = R.add(R.matmul(h2, w3), b3)
            R.output(out)
        return out
"""
    )


def mlp_numpy(x, w1, b1, w2, b2, w3, b3):
    h1 = np.maximum(x @ w1 + b1, 0)
    h2 = np.maximum(h1 @ w2 + b2, 0)
    return h2 @ w3 + b3


def transformer_text(layers: int) -> str:
    d, h, f = D_MODEL, HEADS, FFN
    hd = d // h
    weights = ("g", (d,)), ("wq", (d, d)), ("wk", (d, d)), ("wv", (d, d)), ("wo", (d, d))
    weights += ("ln_g", (d,)), ("ln_b", (d,)), ("w_up", (d, f)), ("w_gate", (d, f))
    weights += (("w_down", (f, d)),)
    params = [f'x: R.Tensor((1, "s", {d}), "float32")'] + [
        f'{name}{i}: R.Tensor({shape}, "float32")' for i in range(layers) for name, shape in weights
    ]
    body = []
    for i in range(layers):
        body += [
            f"h = R.nn.rms_norm(x, g{i}, axes=[-1])",
            f"q = R.reshape(R.matmul(h, wq{i}), (1, s, {h}, {hd}))",
            f"k = R.reshape(R.matmul(h, wk{i}), (1, s, {h}, {hd}))",
            f"v = R.reshape(R.matmul(h, wv{i}), (1, s, {h}, {hd}))",
            'a = R.nn.attention(q, k, v, causal_mask="TopLeft")',
            f"x = R.add(x, R.matmul(R.reshape(a, (1, s, {d})), wo{i}))",
            f"n2 = R.nn.layer_norm(x, ln_g{i}, ln_b{i}, axes=[-1])",
            f"gate = R.nn.silu(R.matmul(n2, w_gate{i}))",
            f"x = R.add(x, R.matmul(R.multiply(R.matmul(n2, w_up{i}), gate), w_down{i}))",
        ]
    lines = "\n".join(f"            {line}" for line in body)
    return (
        HEADER
        + f"""    @R.function
    def main({", ".join(params)}) -> R.Tensor((1, "s", {d}), "float32"):
        s = T.int64()
        with R.dataflow():
{lines}
            R.output(x)
        return x
"""
    )


def transformer_numpy(x, *weights):
    d, h = D_MODEL, HEADS
    hd = d // h
    s = x.shape[1]
    causal = np.triu(np.ones((s, s), bool), 1)
    for i in range(0, len(weights), 10):
        g, wq, wk, wv, wo, ln_g, ln_b, w_up, w_gate, w_down = weights[i : i + 10]
        hn = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS) * g
        q, k, v = ((hn @ w).reshape(s, h, hd).transpose(1, 0, 2) for w in (wq, wk, wv))
        scores = q @ k.transpose(0, 2, 1) / np.float32(math.sqrt(hd))
        scores[:, causal] = -np.inf
        p = np.exp(scores - scores.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        x = x + ((p @ v).transpose(1, 0, 2).reshape(1, s, d) @ wo)
        mean = x.mean(-1, keepdims=True)
        n2 = (x - mean) / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + EPS) * ln_g + ln_b
        gate = n2 @ w_gate
        gate = gate / (1 + np.exp(-gate))
        x = x + ((n2 @ w_up) * gate) @ w_down
    return x


@dataclass
class Model:
    name: str
    text: str
    inputs: list[np.ndarray]
    numpy: Callable[..., np.ndarray]


def weights(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    scale = 1 / math.sqrt(shape[0]) if len(shape) == 2 else 0.1
    data = rng.standard_normal(shape) * scale + (1 if len(shape) == 1 else 0)
    return data.astype(np.float32)


def mlp(batch: int) -> Model:
    rng = np.random.default_rng(0)
    a, b, c, d = MLP_SIZES
    shapes = [(batch, a), (a, b), (b,), (b, c), (c,), (c, d), (d,)]
    return Model(f"MLP, n = {batch}", mlp_text(), [weights(rng, s) for s in shapes], mlp_numpy)


def transformer(seq: int, layers: int) -> Model:
    rng = np.random.default_rng(1)
    d, f = D_MODEL, FFN
    shapes = [(d,), (d, d), (d, d), (d, d), (d, d), (d,), (d,), (d, f), (d, f), (f, d)]
    inputs = [rng.standard_normal((1, seq, d)).astype(np.float32)]
    inputs += [weights(rng, s) for _ in range(layers) for s in shapes]
    name = f"transformer x{layers}, s = {seq}"
    return Model(name, transformer_text(layers), inputs, transformer_numpy)


def bindings(module: ModuleOp) -> int:
    """The Relax bindings of the module (those in dataflow blocks included)."""
    count = 0
    for function in module.body.block.ops:
        if isinstance(function, FunctionOp):
            for op in function.body.block.ops:
                inner = op.body.block.ops if isinstance(op, DataflowOp) else [op]
                count += sum(1 for _ in inner)
    return count


BACKENDS = ("reference", "lowered", "mlir", "mlir tiled")


def measure(
    model: Model, repeat: int, backends: tuple[str, ...] = BACKENDS, compile_times: bool = True
) -> dict[str, float]:
    """Bindings, lowering seconds, compile seconds (``compile_times``) and the best run
    seconds of each of ``backends`` and of NumPy, every result checked against NumPy."""
    module = parse_tvmscript(model.text, f"{model.name}.py")
    expected = model.numpy(*model.inputs)
    row: dict[str, float] = {"bindings": bindings(module)}
    row["lower"] = best_of(repeat, lambda: LowerToLinalgPass().apply(Context(), module.clone()))
    lowered = lower(module)
    if compile_times:
        from relax_xdsl.lowering.toolchain import compile_module

        text = generic_text(lowered)
        with tempfile.TemporaryDirectory() as cache:
            saved = os.environ.get("XDG_CACHE_HOME")
            os.environ["XDG_CACHE_HOME"] = cache
            try:
                for tile in (False, True):
                    started = time.perf_counter()
                    compile_module(text, tile=tile)
                    row[f"compile tile={tile}"] = time.perf_counter() - started
            finally:
                if saved is None:
                    del os.environ["XDG_CACHE_HOME"]
                else:
                    os.environ["XDG_CACHE_HOME"] = saved
    makers: dict[str, Callable[[], Callable[..., object]]] = {
        "reference": lambda: lambda *args: run(module, "main", *args),
        "lowered": lambda: compile_function(module, "main", "lowered", lowered=lowered),
        "mlir": lambda: compile_function(module, "main", "mlir", lowered=lowered),
        "mlir tiled": lambda: compile_function(
            module, "main", "mlir", RunOptions(tile=True), lowered
        ),
    }
    runners = {name: makers[name]() for name in backends}
    runners["numpy"] = model.numpy
    for name, runner in runners.items():
        result = np.asarray(runner(*model.inputs))
        np.testing.assert_allclose(result, expected, rtol=2e-3, atol=2e-3, err_msg=name)
        row[name] = best_of(repeat, lambda runner=runner: runner(*model.inputs))
    return row


@contextlib.contextmanager
def empty_cache() -> Iterator[None]:
    """Compiled code cached in a fresh directory for the duration (compile times from
    scratch)."""
    saved = os.environ.get("XDG_CACHE_HOME")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        try:
            yield
        finally:
            if saved is None:
                del os.environ["XDG_CACHE_HOME"]
            else:
                os.environ["XDG_CACHE_HOME"] = saved


IREE_BESIDE = ("mlir", "iree")
"""The compiled backends of the IREE table: native code (untiled) and IREE."""


def measure_iree(model: Model, repeat: int) -> dict[str, float]:
    """Compile seconds on an empty cache and best run seconds of native code and IREE,
    each result checked against NumPy, and NumPy's run seconds."""
    module = parse_tvmscript(model.text, f"{model.name}.py")
    lowered = lower(module)
    expected = model.numpy(*model.inputs)
    row: dict[str, float] = {"numpy": best_of(repeat, lambda: model.numpy(*model.inputs))}
    with empty_cache():
        for name in IREE_BESIDE:
            started = time.perf_counter()
            runner = compile_function(module, "main", name, lowered=lowered)
            row[f"compile {name}"] = time.perf_counter() - started
            result = np.asarray(runner(*model.inputs))  # the first call: not timed
            np.testing.assert_allclose(result, expected, rtol=2e-3, atol=2e-3, err_msg=name)
            row[name] = best_of(repeat, lambda runner=runner: runner(*model.inputs))
    return row


def print_iree_table(models: list[Model], repeat: int) -> None:
    """The models compiled by IREE beside native code (nothing without the extra)."""
    reason = backend_named("iree").unavailable()
    if reason is not None:
        print(f"IREE: skipped: {reason}")
        return
    print("\n| model | compile (mlir) | compile (iree) | mlir | iree | NumPy |")
    print("|---" * 6 + "|")
    for model in models:
        row = measure_iree(model, repeat)
        numpy = row["numpy"]
        runs = [f"{row[b] * 1e3:.1f} ms ({row[b] / numpy:.1f}x)" for b in IREE_BESIDE]
        print(
            f"| {model.name} | {row['compile mlir']:.2f} s | {row['compile iree']:.2f} s | "
            + " | ".join(runs)
            + f" | {numpy * 1e3:.2f} ms |",
            flush=True,
        )


CNNS = ("resnet18", "mobilenet")


def median_seconds(
    repeat: int, action: Callable[[], object], clock: Callable[[], float] = time.process_time
) -> float:
    """The median ``clock`` time (by default the process's CPU time) of ``repeat`` calls of
    ``action`` (after one untimed)."""
    action()
    times = []
    for _ in range(repeat):
        start = clock()
        action()
        times.append(clock() - start)
    return sorted(times)[len(times) // 2]


def constant_weights(model) -> ModuleOp:
    """An ONNX model imported by the project's importer with its initializers as constants,
    the batch norms folded into the convolutions' weights (``relax-fold-batch-norm``)."""
    from relax_dialect.frontends.onnx import from_onnx
    from relax_dialect.passes import pass_class

    module = from_onnx(model)
    pass_class("relax-fold-batch-norm")().apply(Context(), module)
    return module


def cnn_row(name: str, repeat: int, work: str) -> dict[str, float]:
    """Median CPU seconds per call of ``name`` on onnxruntime (1, 2 threads) and native code
    (untiled, tiled; tiled with the weights as constants, packed at compile time), and the
    compile seconds of each native variant (onnxruntime with two threads: wall time, its CPU
    time counting both)."""
    import subprocess
    import sys

    import onnxruntime
    from onnx import numpy_helper
    from onnx_models import ARCHITECTURES

    from relax_xdsl.lowering.toolchain import compile_module

    model = ARCHITECTURES[name].model(full=True)
    path = os.path.join(work, f"{name}.onnx")
    with open(path, "wb") as handle:
        handle.write(model.SerializeToString())
    script = os.path.join(work, f"{name}.py")
    tvm_python = os.environ.get("TVM_PYTHON", sys.executable)
    importer = os.path.join(os.path.dirname(__file__), "tvm_import.py")
    subprocess.run([tvm_python, importer, path, script], check=True)
    with open(script) as handle:
        module = parse_tvmscript(handle.read(), script)
    image = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    function = next(op for op in module.body.block.ops if isinstance(op, FunctionOp))
    names = [arg.name_hint for arg in function.body.block.args]
    args = [image if n == "input" else weights[n] for n in names]
    row: dict[str, float] = {}
    expected = None
    for threads in (1, 2):
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        run_ort = lambda session=session: session.run(None, {"input": image})[0]  # noqa: E731
        expected = run_ort()
        clock = time.process_time if threads == 1 else time.perf_counter  # 2 threads: wall
        row[f"onnxruntime {threads}t"] = median_seconds(repeat, run_ort, clock)
    text = generic_text(lower(module))
    for tile in (False, True):
        label = "mlir tiled" if tile else "mlir"
        started = time.perf_counter()
        native = compile_module(text, tile=tile)
        row[f"compile {label}"] = time.perf_counter() - started
        call = lambda native=native: native.call("main", args)[0]  # noqa: E731
        np.testing.assert_allclose(call(), expected, rtol=1e-3, atol=1e-3, err_msg=label)
        row[label] = median_seconds(repeat, call)
    constant = constant_weights(model)
    started = time.perf_counter()
    native_constant = compile_function(constant, "main", "mlir", RunOptions(tile=True))
    row["compile mlir constant"] = time.perf_counter() - started
    call = lambda: np.asarray(native_constant(image))  # noqa: E731
    np.testing.assert_allclose(call(), expected, rtol=1e-3, atol=1e-3, err_msg="constant")
    row["mlir constant"] = median_seconds(repeat, call)
    if backend_named("iree").unavailable() is None:
        with empty_cache():
            started = time.perf_counter()
            iree = compile_function(module, "main", "iree")
            row["compile iree"] = time.perf_counter() - started
        call = lambda: np.asarray(iree(*args))  # noqa: E731
        np.testing.assert_allclose(call(), expected, rtol=1e-3, atol=1e-3, err_msg="iree")
        row["iree"] = median_seconds(repeat, call)
    return row


def cnn_main(repeat: int) -> None:
    columns = ["onnxruntime 1t", "onnxruntime 2t", "mlir", "mlir tiled", "mlir constant"]
    if backend_named("iree").unavailable() is None:
        columns.append("iree")  # the local-task device: CPU time of its threads
    ratios = " | tiled / ORT 1t | constant / ORT 1t | compile (tiled, constant) |"
    print("| model | " + " | ".join(columns) + ratios)
    print("|---" * (len(columns) + 4) + "|")
    with tempfile.TemporaryDirectory() as work:
        for name in CNNS:
            row = cnn_row(name, repeat, work)
            cells = " | ".join(f"{row[c] * 1e3:.1f} ms" for c in columns)
            ratio = row["mlir tiled"] / row["onnxruntime 1t"]
            ratio_constant = row["mlir constant"] / row["onnxruntime 1t"]
            compiles = f"{row['compile mlir tiled']:.1f} s, {row['compile mlir constant']:.1f} s"
            if "compile iree" in row:
                compiles += f" (iree {row['compile iree']:.1f} s)"
            ratios = f"{ratio:.2f}x | {ratio_constant:.2f}x"
            print(f"| {name} | {cells} | {ratios} | {compiles} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cnn", action="store_true", help="ResNet-18, MobileNetV2 vs ORT")
    parser.add_argument(
        "--transformers", action="store_true", help="the BERT and GPT-2 layers against ORT"
    )
    parser.add_argument(
        "--iree", action="store_true", help="IREE beside ORT and native code on four models"
    )
    args = parser.parse_args()
    if args.iree:
        iree_main(args.repeat)
        return
    if args.cnn:
        cnn_main(args.repeat)
        return
    if args.transformers:
        transformers_main(args.repeat)
        return
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")  # native code: one thread
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
        f"OPENBLAS_NUM_THREADS={threads}"
    )
    models = [mlp(args.batch), transformer(args.seq, args.layers)]
    backends = BACKENDS
    print(
        "| model | bindings | lower | bindings/s | compile | compile (tiled) | "
        + " | ".join(backends)
        + " | NumPy |"
    )
    print("|---" * (7 + len(backends)) + "|")
    for model in models:
        row = measure(model, args.repeat)
        numpy = row["numpy"]
        cells = [f"{row[b] * 1e3:.1f} ms ({row[b] / numpy:.1f}x)" for b in backends]
        print(
            f"| {model.name} | {row['bindings']:.0f} | {row['lower'] * 1e3:.0f} ms | "
            f"{row['bindings'] / row['lower']:,.0f} | {row['compile tile=False']:.2f} s | "
            f"{row['compile tile=True']:.2f} s | "
            + " | ".join(cells)
            + f" | {numpy * 1e3:.2f} ms |",
            flush=True,
        )
    print_iree_table(models, args.repeat)


# --- transformer layers against onnxruntime (issue 33) ---------------------------------------
# ``python bench/models.py --transformers`` measures the BERT-base encoder layer and a GPT-2
# style block as TVMScript on the native backend (untiled and tiled, one thread and two) and
# as ONNX graphs on onnxruntime (one intra-op thread and two), with the reference interpreter
# and NumPy: medians of CPU time per call (and wall time), compilation apart.

HIDDEN, HEADS_BERT, FFN_BERT = 768, 12, 3072


@dataclass(frozen=True)
class Layer:
    """An encoder layer: BERT's (post-norm, erf GELU) or GPT-2's (pre-norm, tanh GELU, causal)."""

    name: str
    batch: int
    seq: int
    gpt2: bool

    @property
    def flops(self) -> float:
        """Multiply-adds ×2 of the matmuls (projections, FFN, attention's two products)."""
        tokens, d, f = self.batch * self.seq, HIDDEN, FFN_BERT
        return 2.0 * tokens * (4 * d * d + 2 * d * f) + 2.0 * 2 * self.batch * self.seq**2 * d


LAYER_WEIGHTS = (
    ("wq", (HIDDEN, HIDDEN)), ("bq", (HIDDEN,)), ("wk", (HIDDEN, HIDDEN)), ("bk", (HIDDEN,)),
    ("wv", (HIDDEN, HIDDEN)), ("bv", (HIDDEN,)), ("wo", (HIDDEN, HIDDEN)), ("bo", (HIDDEN,)),
    ("g1", (HIDDEN,)), ("b1", (HIDDEN,)), ("w1", (HIDDEN, FFN_BERT)), ("c1", (FFN_BERT,)),
    ("w2", (FFN_BERT, HIDDEN)), ("c2", (HIDDEN,)), ("g2", (HIDDEN,)), ("b2", (HIDDEN,)),
)  # fmt: skip


def layer_text(layer: Layer) -> str:
    """The layer in TVMScript, weights as parameters, ``R.nn.attention`` for the heads."""
    b, s, d, h = layer.batch, layer.seq, HIDDEN, HEADS_BERT
    params = [f'x: R.Tensor(({b}, {s}, {d}), "float32")']
    params += [f'{n}: R.Tensor({shape}, "float32")' for n, shape in LAYER_WEIGHTS]
    heads = f"({b}, {s}, {h}, {d // h})"
    gelu = "R.nn.gelu_tanh" if layer.gpt2 else "R.nn.gelu"
    mask = ', causal_mask="TopLeft"' if layer.gpt2 else ""
    first = "R.nn.layer_norm(x, g1, b1, axes=[-1])" if layer.gpt2 else "x"
    lines = [
        f"a = {first}",
        *(f"{p} = R.reshape(R.add(R.matmul(a, w{p}), b{p}), {heads})" for p in "qkv"),
        f"o = R.reshape(R.nn.attention(q, k, v{mask}), ({b}, {s}, {d}))",
        "r = R.add(x, R.add(R.matmul(o, wo), bo))",
    ]
    if layer.gpt2:
        lines += [
            "n = R.nn.layer_norm(r, g2, b2, axes=[-1])",
            f"y = R.add(r, R.add(R.matmul({gelu}(R.add(R.matmul(n, w1), c1)), w2), c2))",
        ]
    else:
        lines += [
            "n = R.nn.layer_norm(r, g1, b1, axes=[-1])",
            f"f = R.add(R.matmul({gelu}(R.add(R.matmul(n, w1), c1)), w2), c2)",
            "y = R.nn.layer_norm(R.add(n, f), g2, b2, axes=[-1])",
        ]
    body = "\n".join(f"            {line}" for line in lines)
    return (
        HEADER
        + f"""    @R.function
    def main({", ".join(params)}) -> R.Tensor(({b}, {s}, {d}), "float32"):
        with R.dataflow():
{body}
            R.output(y)
        return y
"""
    )


def _layer_norm(x, g, b):
    mean = x.mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + EPS) * g + b


def _gelu(x, tanh: bool):
    if tanh:
        inner = np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)
        return 0.5 * x * (1 + np.tanh(inner))
    return 0.5 * x * (1 + erf(x / np.float32(math.sqrt(2))))


def layer_numpy(layer: Layer):
    """The layer in NumPy (float32)."""
    b, s, d, h = layer.batch, layer.seq, HIDDEN, HEADS_BERT
    causal = np.triu(np.ones((s, s), bool), 1)

    def forward(x, wq, bq, wk, bk, wv, bv, wo, bo, g1, b1, w1, c1, w2, c2, g2, b2):
        a = _layer_norm(x, g1, b1) if layer.gpt2 else x
        q, k, v = ((a @ w + c).reshape(b, s, h, d // h).transpose(0, 2, 1, 3)
                   for w, c in ((wq, bq), (wk, bk), (wv, bv)))  # fmt: skip
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(d // h))
        if layer.gpt2:
            scores[..., causal] = -np.inf
        p = np.exp(scores - scores.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        r = x + (p @ v).transpose(0, 2, 1, 3).reshape(b, s, d) @ wo + bo
        if layer.gpt2:
            n = _layer_norm(r, g2, b2)
            return r + _gelu(n @ w1 + c1, True) @ w2 + c2
        n = _layer_norm(r, g1, b1)
        return _layer_norm(n + _gelu(n @ w1 + c1, False) @ w2 + c2, g2, b2)

    return forward


def layer_onnx(layer: Layer) -> bytes:
    """The layer as an ONNX graph (opset 17: LayerNormalization; GELU from Erf or Tanh)."""
    from onnx import TensorProto, helper

    b, s, d, h = layer.batch, layer.seq, HIDDEN, HEADS_BERT
    nodes, inits = [], []

    def const(name: str, value) -> str:
        inits.append(helper.make_tensor(name, TensorProto.FLOAT if np.asarray(value).dtype.kind
                                        == "f" else TensorProto.INT64, np.shape(value),
                                        np.asarray(value).ravel().tolist()))  # fmt: skip
        return name

    def node(op: str, inputs: list[str], output: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    def dense(x: str, w: str, c: str, out: str) -> str:
        return node("Add", [node("MatMul", [x, w], out + "_mm"), c], out)

    def norm(x: str, g: str, c: str, out: str) -> str:
        return node("LayerNormalization", [x, g, c], out, axis=-1, epsilon=EPS)

    def gelu(x: str, out: str) -> str:
        if layer.gpt2:
            cube = node("Mul", [x, node("Mul", [x, x], out + "_sq")], out + "_cube")
            inner = node("Add", [x, node("Mul", [cube, const(out + "_k", 0.044715)], out + "_kc")],
                         out + "_in")  # fmt: skip
            scaled = node("Mul", [inner, const(out + "_s", math.sqrt(2 / math.pi))], out + "_sc")
            t = node("Tanh", [scaled], out + "_t")
        else:
            t = node("Erf", [node("Div", [x, const(out + "_r2", math.sqrt(2))], out + "_d")],
                     out + "_t")  # fmt: skip
        half = node("Mul", [x, const(out + "_h", 0.5)], out + "_half")
        return node("Mul", [half, node("Add", [t, const(out + "_one", 1.0)], out + "_1t")], out)

    heads = const("heads_shape", [b, s, h, d // h])
    a = norm("x", "g1", "b1", "a") if layer.gpt2 else "x"
    q, k, v = (node("Transpose", [node("Reshape", [dense(a, f"w{p}", f"b{p}", p), heads],
               p + "_r")], p + "_t", perm=[0, 2, 1, 3]) for p in "qkv")  # fmt: skip
    kt = node("Transpose", [k], "kT", perm=[0, 1, 3, 2])
    scores = node("Mul", [node("MatMul", [q, kt], "qk"), const("scale", 1 / math.sqrt(d // h))],
                  "scores")  # fmt: skip
    if layer.gpt2:
        mask = np.where(np.triu(np.ones((s, s), bool), 1), -np.inf, 0).astype(np.float32)
        scores = node("Add", [scores, const("mask", mask)], "masked")
    p = node("Softmax", [scores], "p", axis=-1)
    o = node("Transpose", [node("MatMul", [p, v], "pv")], "o_t", perm=[0, 2, 1, 3])
    o = node("Reshape", [o, const("hidden_shape", [b, s, d])], "o")
    r = node("Add", ["x", dense(o, "wo", "bo", "proj")], "r")
    if layer.gpt2:
        n = norm(r, "g2", "b2", "n")
        f = dense(gelu(dense(n, "w1", "c1", "up"), "act"), "w2", "c2", "down")
        node("Add", [r, f], "y")
    else:
        n = norm(r, "g1", "b1", "n")
        f = dense(gelu(dense(n, "w1", "c1", "up"), "act"), "w2", "c2", "down")
        norm(node("Add", [n, f], "nf"), "g2", "b2", "y")
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [b, s, d])]
    inputs += [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(sh))
               for n, sh in LAYER_WEIGHTS]  # fmt: skip
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [b, s, d])]
    graph = helper.make_graph(nodes, layer.name, inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model.SerializeToString()


def median_times(repeat: int, action: Callable[[], object]) -> tuple[float, float]:
    """Median CPU seconds (all threads of the process) and median wall seconds per call."""
    import statistics

    cpu, wall = [], []
    for _ in range(repeat):
        started_cpu, started = time.process_time(), time.perf_counter()
        action()
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return statistics.median(cpu), statistics.median(wall)


def peak_gflops() -> float:
    """The machine's f32 FMA peak: cores × GHz × 2 FMA units × lanes × 2 (lscpu's BogoMIPS/2
    as the clock when the maximum is not reported)."""
    import subprocess

    text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    mhz = float(fields.get("CPU max MHz", "0").strip() or 0) or float(fields["BogoMIPS"]) / 2
    lanes = 16 if "avx512f" in fields.get("Flags", "") else 8
    return (os.cpu_count() or 1) * mhz / 1e3 * 2 * lanes * 2


def measure_layer(layer: Layer, repeat: int) -> dict[str, tuple[float, float]]:
    """Every engine's median (CPU, wall) seconds per call, each result checked against NumPy."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((layer.batch, layer.seq, HIDDEN)).astype(np.float32)
    parameters = [weights(rng, shape) for _, shape in LAYER_WEIGHTS]
    args = [x, *parameters]
    expected = layer_numpy(layer)(*args)
    module = parse_tvmscript(layer_text(layer), f"{layer.name}.py")
    lowered = lower(module)
    runners: dict[str, Callable[[], object]] = {}
    for tile in (False, True):
        for threads in (1, 2):
            options = RunOptions(tile=tile, threads=threads)
            compiled = compile_function(module, "main", "mlir", options, lowered)
            runners[f"mlir{' tiled' if tile else ''} {threads}T"] = lambda c=compiled: c(*args)
    if backend_named("iree").unavailable() is None:  # local-task: a thread pool
        iree = compile_function(module, "main", "iree", RunOptions(), lowered)
        runners["iree"] = lambda: iree(*args)
    try:
        import onnxruntime

        model = layer_onnx(layer)
        for threads in (1, 2):
            opts = onnxruntime.SessionOptions()
            opts.intra_op_num_threads, opts.inter_op_num_threads = threads, 1
            session = onnxruntime.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
            names = ["x", *(name for name, _ in LAYER_WEIGHTS)]
            feeds = dict(zip(names, args, strict=True))
            runners[f"onnxruntime {threads}T"] = lambda s=session, f=feeds: s.run(None, f)[0]
    except ImportError:
        pass
    runners["numpy"] = lambda: layer_numpy(layer)(*args)
    runners["reference"] = lambda: run(module, "main", *args)
    row = {}
    for name, runner in runners.items():
        result = np.asarray(runner())
        np.testing.assert_allclose(result, expected, rtol=2e-3, atol=2e-3, err_msg=name)
        row[name] = median_times(1 if name == "reference" else repeat, runner)
    return row


def transformers_main(repeat: int) -> None:
    peak = peak_gflops()
    print(f"peak {peak:.0f} GFLOP/s (f32 FMA, {os.cpu_count()} cores); CPU ms per call, median")
    layers = [Layer("BERT-base layer 1x128", 1, 128, False),
              Layer("GPT-2 block 1x128", 1, 128, True),
              Layer("GPT-2 block 8x128", 8, 128, True)]  # fmt: skip
    for layer in layers:
        row = measure_layer(layer, repeat)
        ort = row.get("onnxruntime 1T", (float("nan"),))[0]
        cells = []
        for name, (cpu, wall) in row.items():
            rate = layer.flops / cpu / 1e9  # per CPU second: wall time is noisy when shared
            cells.append(
                f"{name}: {cpu * 1e3:.1f} ms cpu, {wall * 1e3:.1f} ms wall, "
                f"{rate:.1f} GFLOP/s per CPU ({rate / peak:.0%} of peak), {cpu / ort:.2f}x ORT-1T"
            )
        print(f"## {layer.name} ({layer.flops / 1e9:.2f} GFLOP)\n" + "\n".join(cells), flush=True)


# --- IREE beside onnxruntime and native code (issue 34) ---------------------------------------
# ``python bench/models.py --iree`` measures ResNet-18 and MobileNetV2 (224 × 224, imported by
# ``from_onnx`` with the weights as parameters) and the BERT and GPT-2 layers above on
# onnxruntime (one thread), native code (``--tile``, one thread) and IREE (its ``local-task``
# thread pool): medians of CPU time per call (all threads) and of wall time, compilation
# apart, every result checked against onnxruntime's.

IREE_COLUMNS = ("onnxruntime 1T", "mlir tiled", "iree")


@dataclass(frozen=True)
class OnnxCase:
    """A model twice: a Relax module with its arguments, and ONNX bytes with onnxruntime's
    feeds (the same values)."""

    module: ModuleOp
    args: list[np.ndarray]
    model: bytes
    feeds: dict[str, np.ndarray]


def engines_row(case: OnnxCase, repeat: int) -> dict[str, tuple[float, float]]:
    """Median (CPU, wall) seconds per call on each engine of ``IREE_COLUMNS``, and the
    compile seconds (wall, an empty cache) of the two compiled ones."""
    session = ort_session(case.model)
    ort = lambda: session.run(None, case.feeds)[0]  # noqa: E731
    row = {"onnxruntime 1T": median_times(repeat, ort)}
    expected = np.asarray(ort())
    for label, backend, options in (
        ("mlir tiled", "mlir", RunOptions(tile=True)),
        ("iree", "iree", RunOptions()),
    ):
        with empty_cache():
            started = time.perf_counter()
            compiled = compile_function(case.module, "main", backend, options)
            row[f"compile {label}"] = (time.perf_counter() - started,) * 2
        call = lambda c=compiled: np.asarray(c(*case.args))  # noqa: E731
        np.testing.assert_allclose(call(), expected, rtol=2e-3, atol=2e-3, err_msg=label)
        row[label] = median_times(repeat, call)
    return row


def ort_session(model: bytes, threads: int = 1, profile: str | None = None) -> object:
    """onnxruntime on ``threads`` intra-op threads, profiling its nodes into files named
    ``profile``... if given."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    if profile:
        options.enable_profiling, options.profile_file_prefix = True, profile
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def cnn_case(name: str) -> OnnxCase:
    """``name`` of ``CNNS`` at batch 1 (224 × 224), imported by ``from_onnx`` with the weights
    as parameters."""
    from onnx import numpy_helper
    from onnx_models import ARCHITECTURES

    from relax_dialect.frontends.onnx import from_onnx

    model = ARCHITECTURES[name].model(full=True)
    module = from_onnx(model, params_as_inputs=True, source_name=f"{name}.onnx")
    image = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
    args = [image, *(numpy_helper.to_array(i) for i in model.graph.initializer)]
    return OnnxCase(module, args, model.SerializeToString(), {"input": image})


def layer_case(layer: Layer) -> OnnxCase:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((layer.batch, layer.seq, HIDDEN)).astype(np.float32)
    args = [x, *(weights(rng, shape) for _, shape in LAYER_WEIGHTS)]
    module = parse_tvmscript(layer_text(layer), f"{layer.name}.py")
    feeds = dict(zip(["x", *(name for name, _ in LAYER_WEIGHTS)], args, strict=True))
    return OnnxCase(module, args, layer_onnx(layer), feeds)


def iree_main(repeat: int) -> None:
    print("| model | " + " | ".join(IREE_COLUMNS) + " | iree / ORT | compile: tiled, iree |")
    print("|---" * (len(IREE_COLUMNS) + 3) + "|")
    rows = [(name, lambda n=name: engines_row(cnn_case(n), repeat)) for name in CNNS]
    rows += [
        (layer.name, lambda la=layer: engines_row(layer_case(la), repeat))
        for layer in (Layer("BERT-base layer 1x128", 1, 128, False),
                      Layer("GPT-2 block 1x128", 1, 128, True))
    ]  # fmt: skip
    for name, measure_row in rows:
        row = measure_row()
        cells = " | ".join(
            f"{row[c][0] * 1e3:.1f} ms ({row[c][1] * 1e3:.1f})" for c in IREE_COLUMNS
        )
        ratio = row["iree"][0] / row["onnxruntime 1T"][0]
        compiles = f"{row['compile mlir tiled'][0]:.0f} s, {row['compile iree'][0]:.0f} s"
        print(f"| {name} | {cells} | {ratio:.1f}x | {compiles} |", flush=True)


if __name__ == "__main__":
    main()
