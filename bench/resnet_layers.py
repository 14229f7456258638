"""ResNet-18's layers other than its stride-1 3 × 3 convolutions, one at a time, against
onnxruntime (issue 33): the 7 × 7 / 2 stem, the 3 × 3 / 2 and 1 × 1 / 2 convolutions with their
folded batch norms (and ReLU, as in the model), the 3 × 3 / 2 max pool and the classifier
(global average pool, dense layer); MobileNetV2's 3 × 3 / 2 stem beside them.

    python bench/resnet_layers.py [--rounds 11] [--calls 20] [--only NAME]

Each layer is a one-node ONNX model built by ``onnx_models.py`` (a symbolic batch, as the models
have it), imported with its weights as constants and its batch norms folded
(``models.constant_weights``), compiled natively (tiled, one thread) in an empty cache and
checked against onnxruntime (one thread) on the same input; then both are called in turns,
``--calls`` calls each per round, the order reversed every other round: medians of CPU time
per call. onnxruntime's time includes its reorders to and from its blocked layout, which it
skips between the layers of a whole model.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Callable

import numpy as np
import onnx
import onnx_models as om
from models import constant_weights, ort_session
from timing import interleaved_medians

from relax_xdsl.lowering.backends import compile_function


def _conv(cin: int, size: int, cout: int, kernel: int, relu: bool) -> Callable[[om.Graph], str]:
    def build(g: om.Graph) -> str:
        x = g.input("input", ["batch", cin, size, size])
        return om.conv_bn(g, x, cin, cout, kernel, 2, activation=om.relu if relu else None)

    return build


def _max_pool(g: om.Graph) -> str:
    x = g.input("input", ["batch", 64, 112, 112])
    return g.op("MaxPool", x, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])


def _classifier(g: om.Graph) -> str:
    return om.classifier(g, g.input("input", ["batch", 512, 7, 7]), 512, 1000)


LAYERS: dict[str, tuple[Callable[[om.Graph], str], list[int]]] = {
    "stem 7x7/2 3->64, 224² + ReLU": (_conv(3, 224, 64, 7, True), [64, 112, 112]),
    "3x3/2 64->128, 56² + ReLU": (_conv(64, 56, 128, 3, True), [128, 28, 28]),
    "3x3/2 128->256, 28² + ReLU": (_conv(128, 28, 256, 3, True), [256, 14, 14]),
    "3x3/2 256->512, 14² + ReLU": (_conv(256, 14, 512, 3, True), [512, 7, 7]),
    "1x1/2 64->128, 56²": (_conv(64, 56, 128, 1, False), [128, 28, 28]),
    "1x1/2 128->256, 28²": (_conv(128, 28, 256, 1, False), [256, 14, 14]),
    "1x1/2 256->512, 14²": (_conv(256, 14, 512, 1, False), [512, 7, 7]),
    "max pool 3x3/2, 64 x 112²": (_max_pool, [64, 56, 56]),
    "global average pool + dense 512->1000": (_classifier, [1000]),
    "MobileNetV2 stem 3x3/2 3->32, 224² + ReLU": (_conv(3, 224, 32, 3, True), [32, 112, 112]),
}


def layer_model(name: str) -> tuple[onnx.ModelProto, np.ndarray]:
    """The layer ``name`` as an ONNX model, and an input image of batch 1."""
    build, out = LAYERS[name]
    g = om.Graph(name, 1)
    g.output(build(g), "out", ["batch", *out])
    model = g.model(13)
    shape = [d.dim_value or 1 for d in model.graph.input[0].type.tensor_type.shape.dim]
    return model, np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def measure(name: str, rounds: int, calls: int) -> tuple[float, float]:
    """The layer ``name``'s median CPU milliseconds per call: onnxruntime's, native code's."""
    model, image = layer_model(name)
    session = ort_session(model.SerializeToString())
    expected = session.run(None, {"input": image})[0]
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        native = compile_function(constant_weights(model), "main", "mlir")
    got = np.asarray(native(image)).reshape(expected.shape)
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-3)
    engines = {
        "onnxruntime": lambda: session.run(None, {"input": image}),
        "native": lambda: native(image),
    }
    times = interleaved_medians(engines, rounds, calls)
    return times["onnxruntime"], times["native"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--only", help="layers whose name contains this")
    args = parser.parse_args()
    print("| layer | onnxruntime 1T | native | native / ORT | load |\n|---|---|---|---|---|")
    for name in LAYERS:
        if args.only and args.only not in name:
            continue
        theirs, ours = measure(name, args.rounds, args.calls)
        print(
            f"| {name} | {theirs:.3f} ms | {ours:.3f} ms | {ours / theirs:.2f}× | "
            f"{os.getloadavg()[0]:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
