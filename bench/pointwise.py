"""MobileNetV2's 1 × 1 layers (batch 1, constant filter, a bias and ReLU epilogue) compiled as
the native backend compiles them, with and without the pixels × filters product
(`lowering/pointwise_convolution.py`), in one process.

    python bench/pointwise.py [--rounds 5] [--calls 15] [--all]

Each layer is compiled twice: as the backend does, and with the rewrite switched off (its
``applies`` false: im2col through `prepacked_weights`, or the direct convolution on wide rows);
with ``--all``, the rewrite takes every 1 × 1 layer of one image, whatever its channels and
pixels. The two variants take turns in ``--rounds`` blocks of ``--calls`` calls; each row gives
the median CPU time per call, GFLOP/s and the ratio. Every result is first checked against
NumPy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile

import numpy as np
from convolutions import _parse, cpu_times

from relax_xdsl.lowering import pointwise_convolution
from relax_xdsl.lowering.backends import compile_function

LAYERS = [
    (192, 64, 14),
    (64, 384, 14),
    (384, 64, 14),
    (384, 96, 14),
    (96, 576, 14),
    (576, 96, 14),
    (576, 160, 7),
    (160, 960, 7),
    (960, 160, 7),
    (960, 320, 7),
    (320, 1280, 7),
]
"""MobileNetV2's 1 × 1 layers on 14 × 14 and 7 × 7 images: input channels, filters, size."""


def constant(array: np.ndarray) -> str:
    dims = ", ".join(map(str, array.shape))
    return f'relax.constant dense<[{dims}], f32, "0x{array.tobytes().hex().upper()}">'


def layer_text(channels: int, size: int, weight: np.ndarray, bias: np.ndarray) -> str:
    return (
        f"relax.function @main(%x: !relax.tensor<[1, {channels}, {size}, {size}], f32>) {{\n"
        f"  %w = {constant(weight)}\n  %b = {constant(bias)}\n  %r = relax.nn.conv2d %x, %w\n"
        "  %a = relax.add %r, %b\n  %y = relax.nn.relu %a\n  relax.return %y\n}\n"
    )


def compiled(text: str, applies, cache: str):
    """The layer compiled with ``applies`` as the rewrite's choice, in its own cache."""
    os.environ["XDG_CACHE_HOME"] = cache
    original = pointwise_convolution.applies
    pointwise_convolution.applies = applies
    try:
        return compile_function(_parse(text), "main", "mlir")
    finally:
        pointwise_convolution.applies = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--all", action="store_true", help="the rewrite takes every layer")
    args = parser.parse_args()
    taken = (lambda op, tile: True) if args.all else pointwise_convolution.applies
    variants = {"rewrite off": lambda op, tile: False, "as the backend": taken}
    print(f"| C → F, size | {' | '.join(variants)} | off / backend |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for channels, filters, size in LAYERS:
            rng = np.random.default_rng(0)
            x = rng.standard_normal((1, channels, size, size)).astype(np.float32)
            weight = rng.standard_normal((filters, channels, 1, 1)).astype(np.float32)
            bias = rng.standard_normal((1, filters, 1, 1)).astype(np.float32)
            text = layer_text(channels, size, weight, bias)
            flat = weight.reshape(filters, channels) @ x.reshape(channels, -1)
            expected = np.maximum(flat + bias.reshape(filters, 1), 0)
            functions = []
            for name, applies in variants.items():
                function = compiled(text, applies, os.path.join(work, name))
                got = np.asarray(function(x)).reshape(filters, -1)
                np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-3)
                functions.append(function)
            times: list[list[float]] = [[] for _ in functions]
            for _ in range(args.rounds):
                for samples, function in zip(times, functions, strict=True):
                    call = lambda a, f=function: f(*a)  # noqa: E731
                    samples.append(cpu_times(call, [x], args.calls))
            medians = [statistics.median(samples) for samples in times]
            flops = 2 * channels * filters * size * size
            cells = " | ".join(f"{m * 1e3:.3f} ms ({flops / m / 1e9:.1f})" for m in medians)
            ratio = medians[0] / medians[1]
            print(f"| {channels} → {filters}, {size}² | {cells} | {ratio:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
