"""Implicit GEMM (`lowering/implicit_gemm.py`) against the im2col it replaces, in one process:
ResNet-18's convolutions with constant filters that it takes, then the whole ResNet-18 with
constant weights beside onnxruntime (one thread).

    python bench/implicit_gemm.py [--rounds 40] [--layers-only | --model-only]

Each kernel is compiled twice as the native backend compiles it (kernels, units, tiled), with
its batch symbolic as in the imported model: once as is, once with the implicit GEMM switched
off (`units.gather_convolutions` replaced by a no-op, so `prepacked_weights` computes it through
im2col). The variants are called in turn, one call each per round, the order reversed every
other round; medians of CPU time per call. Results are checked against each other (and the
model against onnxruntime) first.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

import numpy as np
from convolutions import Kernel, _parse, conv
from models import constant_weights, ort_session
from onnx_models import ARCHITECTURES
from timing import interleaved_medians

import relax_xdsl.lowering.backends.native as native_backend
from relax_xdsl.lowering import units
from relax_xdsl.lowering.backends import compile_function

LAYERS = [
    conv("resnet 3x3 256, 14x14", 256, 14, 256, 3),
    conv("resnet 3x3 512, 7x7", 512, 7, 512, 3),
    conv("resnet 3x3/2 128->256, 28x28", 128, 28, 256, 3, 2),
    conv("resnet 3x3/2 256->512, 14x14", 256, 14, 512, 3, 2),
]


def symbolic_batch(kernel: Kernel) -> str:
    """The kernel's function with a constant filter and the batch ``n``, as ONNX models have
    it."""
    shape = ", ".join(map(str, kernel.data))
    rest = ", ".join(map(str, kernel.data[1:]))
    return kernel.text(constant=True).replace(f"[{shape}]", f"[n, {rest}]", 1)


def both(build: Callable[[], object]) -> dict[str, Callable]:
    """``build()`` compiled with the implicit GEMM off (im2col) and on, bypassing the program
    cache (its key does not see the switch)."""
    gather = units.gather_convolutions
    native_backend.cached_library = lambda key: None
    native_backend.remember = lambda key, library: None
    units.gather_convolutions = lambda module, tile: None
    im2col = compile_function(build(), "main", "mlir")
    units.gather_convolutions = gather
    return {"im2col": im2col, "implicit GEMM": compile_function(build(), "main", "mlir")}


def layers(rounds: int) -> None:
    print("| kernel (batch n = 1) | im2col | implicit GEMM | im2col / implicit |")
    print("|---|---|---|---|")
    for kernel in LAYERS:
        variants = both(lambda kernel=kernel: _parse(symbolic_batch(kernel)))
        [image] = kernel.inputs()[:1]
        results = [np.asarray(f(image)) for f in variants.values()]
        np.testing.assert_allclose(*results, rtol=1e-3, atol=1e-3)
        got = interleaved_medians(
            {k: lambda f=f, x=image: f(x) for k, f in variants.items()}, rounds
        )
        rates = {k: f"{v:.2f} ms ({kernel.flops / v / 1e6:.1f} GFLOP/s)" for k, v in got.items()}
        ratio = got["im2col"] / got["implicit GEMM"]
        print(f"| {kernel.name} | {rates['im2col']} | {rates['implicit GEMM']} | {ratio:.2f}× |")


def model(rounds: int) -> None:
    onnx_model = ARCHITECTURES["resnet18"].model(full=True)
    image = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
    session = ort_session(onnx_model.SerializeToString())
    expected = session.run(None, {"input": image})[0]
    engines: dict[str, Callable[[], object]] = {
        "onnxruntime": lambda: session.run(None, {"input": image})
    }
    for name, function in both(lambda: constant_weights(onnx_model)).items():
        got = np.asarray(function(image)).reshape(expected.shape)
        np.testing.assert_allclose(got, expected, rtol=2e-3, atol=2e-3)
        engines[name] = lambda function=function: function(image)
    got = interleaved_medians(engines, rounds)
    cells = " | ".join(f"{v:.1f} ms" for v in got.values())
    ratios = " | ".join(f"{got[k] / got['onnxruntime']:.2f}×" for k in list(got)[1:])
    print("| model | " + " | ".join(got) + " | im2col / ORT | implicit / ORT |")
    print("|---|---|---|---|---|---|")
    print(f"| ResNet-18, constant weights | {cells} | {ratios} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--layers-only", action="store_true")
    parser.add_argument("--model-only", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    if not args.model_only:
        layers(args.rounds)
    if not args.layers_only:
        model(args.rounds)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
