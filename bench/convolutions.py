"""The convolution and pooling kernels of ResNet-18 and MobileNetV2 (batch 1, 224×224), one at
a time, natively compiled untiled and tiled: CPU time per call (median), GFLOP/s and the
fraction of the machine's peak, and the compile time; then compiled as the native backend
compiles (kernels, units) with the weight a parameter and a constant (packed at compile time),
interleaved; with ``--onnxruntime``, onnxruntime on one thread takes its turn in the same
rounds (its ONNX node, the same weights as initializers), so that the ratio of native code (the
constant form of a convolution) to it is a same-process ratio of CPU times, kernel by kernel.

    OPENBLAS_NUM_THREADS=1 python bench/convolutions.py [--repeat 7] [--only NAME] [--clock GHZ]
        [--onnxruntime]

The peak is one core's FMA throughput: vector registers (`lscpu`'s flags) × 2 FMA units ×
2 flops × the clock (`--clock`, GHz); what is attainable is shown by NumPy's (OpenBLAS's)
float32 matrix product of 1024 × 1024 matrices, measured the same way. CPU time is
the process's (`time.process_time`), so a loaded machine slows the numbers less than wall
time would; still, repeat on a quiet machine before trusting a difference of 10%.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import dataclass

import numpy as np
from models import ort_session
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.host import vector_register_bytes
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.toolchain import compile_module, generic_text


@dataclass(frozen=True)
class Kernel:
    """One operator on a tensor of ``data`` shape (NCHW) with ``attrs``; ``weight`` for a
    convolution (OIHW), None for pooling; ``onnx``, the ONNX operator computing the same and
    its attributes."""

    name: str
    op: str
    data: tuple[int, ...]
    weight: tuple[int, ...] | None
    attrs: str
    flops: float
    onnx: tuple[str, dict[str, object]]

    def text(self, constant: bool = False) -> str:
        """The operator in a function; with ``constant``, its weight a constant."""
        shapes = [self.data] + ([self.weight] if self.weight else [])
        params = ", ".join(
            f"%a{i}: !relax.tensor<[{', '.join(map(str, s))}], f32>"
            for i, s in enumerate(shapes[:1] if constant else shapes)
        )
        operands = ", ".join(f"%a{i}" for i in range(len(shapes)))
        weight = ""
        if constant:
            array = self.inputs()[1]
            dims = ", ".join(map(str, array.shape))
            data = array.tobytes().hex().upper()
            weight = f'  %a1 = relax.constant dense<[{dims}], f32, "0x{data}">\n'
        return (
            f"relax.function @main({params}) {{\n{weight}"
            f"  %r = relax.nn.{self.op} {operands} {{{self.attrs}}}\n  relax.return %r\n}}\n"
        )

    def onnx_model(self) -> bytes:
        """The ONNX operator on an input ``x``, its weight an initializer of `inputs`' values."""
        from onnx import TensorProto, helper, numpy_helper

        op, attributes = self.onnx
        names = ["x"] + (["w"] * bool(self.weight))
        node = helper.make_node(op, names, ["y"], **attributes)
        weights = [numpy_helper.from_array(self.inputs()[1], "w")] if self.weight else []
        graph = helper.make_graph(
            [node],
            self.name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(self.data))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
            weights,
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        return model.SerializeToString()

    def inputs(self) -> list[np.ndarray]:
        rng = np.random.default_rng(0)
        shapes = [self.data] + ([self.weight] if self.weight else [])
        return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def conv(name: str, c: int, size: int, f: int, k: int, stride: int = 1, groups: int = 1):
    pad = k // 2
    out = (size + 2 * pad - k) // stride + 1
    flops = 2.0 * f * out * out * (c // groups) * k * k
    attrs = f"strides = [{stride}, {stride}], padding = [{pad}], groups = {groups}"
    onnx = ("Conv", {"pads": [pad] * 4, "strides": [stride] * 2, "group": groups})
    return Kernel(name, "conv2d", (1, c, size, size), (f, c // groups, k, k), attrs, flops, onnx)


def transposed(name: str, c: int, size: int, f: int, k: int, stride: int) -> Kernel:
    """A decoder's upsampling: output ``stride`` times the input (``padding = k // 2``,
    ``output_padding = stride - 1``); the flops counted are the products of real inputs."""
    flops = 2.0 * c * f * size * size * k * k
    attrs = f"strides = [{stride}, {stride}], padding = [{k // 2}], output_padding = [{stride - 1}]"
    onnx = (
        "ConvTranspose",
        {"pads": [k // 2] * 4, "strides": [stride] * 2, "output_padding": [stride - 1] * 2},
    )
    return Kernel(name, "conv2d_transpose", (1, c, size, size), (c, f, k, k), attrs, flops, onnx)


def pool(
    name: str,
    op: str,
    c: int,
    size: int,
    attrs: str,
    window: int,
    out: int,
    onnx: tuple[str, dict[str, object]],
) -> Kernel:
    return Kernel(name, op, (1, c, size, size), None, attrs, float(c * out * out * window), onnx)


KERNELS = [
    conv("resnet stem 7x7/2", 3, 224, 64, 7, 2),
    conv("resnet 3x3 64", 64, 56, 64, 3),
    conv("resnet 3x3/2 128", 64, 56, 128, 3, 2),
    conv("resnet 3x3 128", 128, 28, 128, 3),
    conv("resnet 1x1/2 128", 64, 56, 128, 1, 2),
    conv("resnet 3x3/2 256", 128, 28, 256, 3, 2),
    conv("resnet 3x3 256", 256, 14, 256, 3),
    conv("resnet 3x3/2 512", 256, 14, 512, 3, 2),
    conv("resnet 3x3 512", 512, 7, 512, 3),
    conv("mobilenet 1x1 96->24", 96, 56, 24, 1),
    conv("mobilenet 1x1 24->144", 24, 56, 144, 1),
    conv("mobilenet dw 3x3 144", 144, 56, 144, 3, 1, 144),
    conv("mobilenet dw 3x3/2 96", 96, 112, 96, 3, 2, 96),
    conv("mobilenet dw 3x3 960", 960, 7, 960, 3, 1, 960),
    transposed("decoder transposed 3x3/2 64->32", 64, 56, 32, 3, 2),
    pool(
        "resnet max_pool 3x3/2",
        "max_pool2d",
        64,
        112,
        "pool_size = [3, 3], strides = [2, 2], padding = [1]",
        9,
        56,
        ("MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1] * 4}),
    ),
    pool(
        "resnet global avg",
        "adaptive_avg_pool2d",
        512,
        7,
        "output_size = [1, 1]",
        49,
        1,
        ("GlobalAveragePool", {}),
    ),
]


def peak_gflops(clock: float) -> float:
    """One core's float32 FMA peak: lanes × 2 units × 2 flops × clock (GHz)."""
    return vector_register_bytes() // 4 * 2 * 2 * clock


def sgemm_gflops(repeat: int) -> float:
    """NumPy's float32 1024 × 1024 matrix product, in GFLOP/s of CPU time."""
    a = np.random.default_rng(0).standard_normal((1024, 1024)).astype(np.float32)
    return 2 * 1024**3 / cpu_times(lambda args: args[0] @ args[1], [a, a], repeat) / 1e9


def cpu_times(call, args, repeat: int) -> float:
    """The median CPU seconds of ``repeat`` calls (after one untimed)."""
    call(args)
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call(args)
        times.append(time.process_time() - start)
    return statistics.median(times)


def _parse(text: str) -> ModuleOp:
    context = Context()
    context.load_dialect(Builtin)
    context.load_dialect(Relax)
    return parse_module(context, text, "kernel.mlir")


def measure(kernel: Kernel, tile: bool, repeat: int) -> tuple[float, float]:
    """(compile seconds on an empty cache, median CPU seconds per call)."""
    text = generic_text(lower(_parse(kernel.text())))
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        start = time.perf_counter()
        module = compile_module(text, tile=tile)
        compiled = time.perf_counter() - start
    return compiled, cpu_times(lambda args: module.call("main", args), kernel.inputs(), repeat)


ROUNDS = 3
"""Interleaved rounds of the parameter and constant variants (the median round is kept)."""


def measure_weights(kernel: Kernel, repeat: int, onnxruntime: bool) -> list[float]:
    """Median CPU seconds per call of the tiled kernel compiled as the native backend compiles
    it, with its weight a parameter (convolutions) and a constant (packed at compile time),
    then, with ``onnxruntime``, of onnxruntime on one thread: ``ROUNDS`` rounds of each,
    interleaved, so that load on the machine weighs on all alike."""
    inputs = kernel.inputs()
    variants = [(compile_function(_parse(kernel.text()), "main", "mlir"), inputs)]
    if kernel.weight:
        constant = compile_function(_parse(kernel.text(constant=True)), "main", "mlir")
        variants.append((constant, inputs[:1]))
    if onnxruntime:
        session = ort_session(kernel.onnx_model())
        expected = session.run(None, {"x": inputs[0]})[0]
        np.testing.assert_allclose(variants[-1][0](*variants[-1][1]), expected, 1e-3, 1e-3)
        variants.append((lambda x: session.run(None, {"x": x}), inputs[:1]))
    rounds: list[list[float]] = [[] for _ in variants]
    for _ in range(ROUNDS):
        for times, (function, args) in zip(rounds, variants, strict=True):
            times.append(cpu_times(lambda args, f=function: f(*args), args, repeat))
    return [statistics.median(times) for times in rounds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", help="kernels whose name contains this")
    parser.add_argument("--clock", type=float, default=2.45, help="GHz (default 2.45)")
    parser.add_argument(
        "--onnxruntime", action="store_true", help="onnxruntime (1 thread) in the same rounds"
    )
    args = parser.parse_args()
    peak = peak_gflops(args.clock)
    print(f"peak {peak:.0f} GFLOP/s (one core, {args.clock} GHz)")
    print(f"NumPy float32 matrix product 1024²: {sgemm_gflops(args.repeat):.1f} GFLOP/s")
    theirs = " onnxruntime 1T | native / onnxruntime |" if args.onnxruntime else ""
    print(
        "| kernel | GFLOP | untiled | tiled | tiled GFLOP/s | % peak | compile (tiled) "
        f"| backend, weight parameter | weight constant | GFLOP/s |{theirs}"
    )
    print("|---|---|---|---|---|---|---|---|---|---|" + "---|" * (2 * args.onnxruntime))
    for kernel in KERNELS:
        if args.only and args.only not in kernel.name:
            continue
        _, untiled = measure(kernel, False, args.repeat)
        compiled, tiled = measure(kernel, True, args.repeat)
        rate = kernel.flops / tiled / 1e9
        constant = "— | — | —"
        if kernel.weight or args.onnxruntime:
            times = measure_weights(kernel, args.repeat, args.onnxruntime)
        if kernel.weight:
            parameter, seconds = times[:2]
            achieved = kernel.flops / seconds / 1e9
            constant = f"{parameter * 1e3:.2f} ms | {seconds * 1e3:.2f} ms | {achieved:.1f}"
        if args.onnxruntime:
            ours, onnxruntime = times[-2:]
            constant += f" | {onnxruntime * 1e3:.2f} ms | {ours / onnxruntime:.2f}×"
        print(
            f"| {kernel.name} | {kernel.flops / 1e9:.3f} | {untiled * 1e3:.2f} ms | "
            f"{tiled * 1e3:.2f} ms | {rate:.1f} | {100 * rate / peak:.0f}% | {compiled:.1f} s "
            f"| {constant} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
