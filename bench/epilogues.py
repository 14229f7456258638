"""Fused epilogues (issue 33): each contraction with its element-wise chain in one kernel and
one loop nest, against one kernel per operation, in the same process.

    python bench/epilogues.py [--repeat 7] [--rounds 3] [--layers-only | --models-only]

*Layers*: ResNet-18's convolutions with their batch norm, residual add and ReLU, and the
BERT-base layer's dense layers with their bias, GELU or residual add (batch 1, TVMScript,
weights as parameters); *models*: ResNet-18 and the BERT-base layer built by
``onnx_models.py`` and imported by ``from_onnx`` (weights as parameters; for ResNet-18 also
as constants, then with ``relax-fold-batch-norm``), with onnxruntime on one thread. Native
code, tiled, one thread: *fused* is the default outlining (`lowering/kernels.py`), *unfused*
the same with no epilogue (every operation a kernel, as before). CPU time per call, medians of
``--repeat`` calls in each of ``--rounds`` interleaved rounds, the median of the rounds;
GFLOP/s counts the contractions' multiply-adds × 2. Every result is checked against the
reference interpreter (layers) or onnxruntime (models).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.interpreter import run
from relax_xdsl.lowering import kernels
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions

HEADER = "from tvm.script import ir as I, relax as R, tirx as T\n\n\n@I.ir_module\nclass Module:\n"
F32 = '"float32"'


@dataclass(frozen=True)
class Layer:
    """A contraction and its epilogue as a TVMScript function ``main``."""

    name: str
    params: dict[str, tuple[int, ...]]
    body: str
    flops: float

    def text(self) -> str:
        params = ", ".join(f"{p}: R.Tensor({s}, {F32})" for p, s in self.params.items())
        return HEADER + (
            f"    @R.function\n    def main({params}):\n        with R.dataflow():\n"
            f"            y = {self.body}\n            R.output(y)\n        return y\n"
        )


def conv_layer(channels: int, image: int, residual: bool) -> Layer:
    c = channels
    params = {"x": (1, c, image, image), "w": (c, c, 3, 3)}
    params |= {p: (c,) for p in ("g", "be", "mu", "var")}
    conv = "R.nn.conv2d(x, w, padding=[1, 1, 1, 1])"
    normed = f"R.nn.batch_norm({conv}, g, be, mu, var, axis=1, training=False)[0]"
    if residual:
        params["r"] = (1, c, image, image)
        normed = f"R.add({normed}, r)"
    name = f"conv 3x3 {c}@{image}² + bn{' + add' if residual else ''} + relu"
    return Layer(name, params, f"R.nn.relu({normed})", 2.0 * c * c * 9 * image * image)


def dense_layer(rows: int, inner: int, outer: int, epilogue: str) -> Layer:
    params = {"x": (rows, inner), "w": (inner, outer), "b": (outer,)}
    body = "R.add(R.matmul(x, w), b)"
    if epilogue == "gelu":
        body = f"R.nn.gelu({body})"
    elif epilogue == "residual":
        params["r"] = (rows, outer)
        body = f"R.add({body}, r)"
    name = f"dense {rows}×{inner}→{outer} + bias" + (f" + {epilogue}" if epilogue else "")
    return Layer(name, params, body, 2.0 * rows * inner * outer)


LAYERS = [
    conv_layer(64, 56, residual=False),
    conv_layer(64, 56, residual=True),
    conv_layer(128, 28, residual=True),
    conv_layer(256, 14, residual=True),
    conv_layer(512, 7, residual=True),
    dense_layer(128, 768, 768, ""),
    dense_layer(128, 768, 3072, "gelu"),
    dense_layer(128, 3072, 768, "residual"),
]


def cpu_median(repeat: int, action: Callable[[], object]) -> float:
    action()
    times = []
    for _ in range(repeat):
        started = time.process_time()
        action()
        times.append(time.process_time() - started)
    return statistics.median(times)


def compiled_variants(module, options: RunOptions) -> dict[str, Callable[..., object]]:
    """The module's ``main`` compiled fused (the default) and unfused (no epilogues)."""
    original = kernels._epilogue
    variants = {}
    for label, epilogue in (("unfused", lambda op: []), ("fused", original)):
        kernels._epilogue = epilogue
        try:
            variants[label] = compile_function(module, "main", "mlir", options)
        finally:
            kernels._epilogue = original
    return variants


def interleaved(runners: dict[str, Callable[[], object]], repeat: int, rounds: int):
    times: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(rounds):
        for name, runner in runners.items():
            times[name].append(cpu_median(repeat, runner))
    return {name: statistics.median(t) for name, t in times.items()}


def layers_table(repeat: int, rounds: int) -> None:
    print("| layer | unfused | fused | fused / unfused | GFLOP/s unfused → fused |")
    print("|---|---|---|---|---|")
    for layer in LAYERS:
        module = parse_tvmscript(layer.text(), "layer.py")
        rng = np.random.default_rng(0)
        args = [rng.standard_normal(s).astype(np.float32) for s in layer.params.values()]
        names = list(layer.params)
        if "var" in names:
            args[names.index("var")] = np.abs(args[names.index("var")]) + 0.5
        want = np.asarray(run(module, "main", *args))
        runners = {}
        for label, compiled in compiled_variants(module, RunOptions(tile=True)).items():
            got = np.asarray(compiled(*args))
            np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-3, err_msg=label)
            runners[label] = lambda c=compiled, a=args: c(*a)
        t = interleaved(runners, repeat, rounds)
        u, f = t["unfused"], t["fused"]
        rates = f"{layer.flops / u / 1e9:.1f} → {layer.flops / f / 1e9:.1f}"
        print(
            f"| {layer.name} | {u * 1e3:.2f} ms | {f * 1e3:.2f} ms | {f / u:.2f} | {rates} |",
            flush=True,
        )


def models_table(repeat: int, rounds: int) -> None:
    import onnxruntime
    from onnx import numpy_helper
    from onnx_models import ARCHITECTURES, example_inputs
    from xdsl.context import Context

    from relax_dialect.frontends.onnx import from_onnx
    from relax_dialect.passes.fold_batch_norm import FoldBatchNormPass

    print("| model | weights | onnxruntime 1T | unfused | fused | fused / unfused | fused / ORT |")
    print("|---|---|---|---|---|---|---|")
    bert_inputs = {"batch": 1, "seq": 128}
    cases = [
        ("resnet18", "parameters"),
        ("resnet18", "constants"),
        ("resnet18", "constants, folded"),
        ("bert", "parameters"),
    ]
    for name, weights in cases:
        model = ARCHITECTURES[name].model(full=True)
        dims = bert_inputs if name == "bert" else {}
        feeds = example_inputs(model, dims or {"batch": 1})
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = 1, 1
        session = onnxruntime.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        expected = session.run(None, feeds)[0]
        as_inputs = weights == "parameters"
        module = from_onnx(model, params_as_inputs=as_inputs, source_name=f"{name}.onnx")
        if weights.endswith("folded"):
            FoldBatchNormPass().apply(Context(), module)
        args = list(feeds.values())
        if as_inputs:
            args += [numpy_helper.to_array(i) for i in model.graph.initializer]
        runners: dict[str, Callable[[], object]] = {
            "onnxruntime": lambda s=session, f=feeds: s.run(None, f)[0]
        }
        for label, compiled in compiled_variants(module, RunOptions(tile=True)).items():
            got = np.asarray(compiled(*args))
            np.testing.assert_allclose(got, expected, rtol=2e-3, atol=2e-3, err_msg=label)
            runners[label] = lambda c=compiled, a=args: c(*a)
        t = interleaved(runners, repeat, rounds)
        o, u, f = t["onnxruntime"], t["unfused"], t["fused"]
        print(
            f"| {name} | {weights} | {o * 1e3:.1f} ms | {u * 1e3:.1f} ms | {f * 1e3:.1f} ms "
            f"| {f / u:.2f} | {f / o:.2f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--layers-only", action="store_true")
    parser.add_argument("--models-only", action="store_true")
    args = parser.parse_args()
    if not args.models_only:
        layers_table(args.repeat, args.rounds)
    if not args.layers_only:
        models_table(args.repeat, args.rounds)


if __name__ == "__main__":
    main()
