"""Native code against onnxruntime on one thread, every issue-33 model in one process.

    python bench/native_summary.py [--rounds 5] [--calls 5]

The BERT-base and GPT-2 layers (``models.layer_case``: 1 × 128, BERT also 8 × 128) and
ResNet-18 and MobileNetV2 at 224 × 224 (``models.cnn_case``, weights as parameters, and
``models.constant_weights``: constants, batch norms folded), tiled native code against
onnxruntime with one intra-op thread: engines take turns in ``--rounds`` blocks of
``--calls`` calls (`timing.interleaved_medians`: an untimed call first, every other round in
reverse order); per engine the median CPU time per call and its ratio to onnxruntime.
Every result is first checked against onnxruntime's.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from models import Layer, cnn_case, constant_weights, layer_case, ort_session
from onnx_models import ARCHITECTURES
from timing import interleaved_medians

from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions

LAYERS = (
    Layer("BERT-base layer 1x128", 1, 128, False),
    Layer("GPT-2 block 1x128", 1, 128, True),
    Layer("BERT-base layer 8x128", 8, 128, False),
)
CNNS = ("resnet18", "mobilenet")
ORT = "onnxruntime 1T"


def checked(engine: Callable[[], object], expected: np.ndarray) -> Callable[[], object]:
    np.testing.assert_allclose(np.asarray(engine()), expected, rtol=2e-3, atol=2e-3)
    return engine


def rows() -> dict[str, dict[str, Callable[[], object]]]:
    tiled = RunOptions(tile=True)
    found = {}
    for layer in LAYERS:
        case = layer_case(layer)
        session = ort_session(case.model)
        expected = session.run(None, case.feeds)[0]
        native = compile_function(case.module, "main", "mlir", tiled)
        found[layer.name] = {
            ORT: lambda s=session, c=case: s.run(None, c.feeds),
            "native": checked(lambda n=native, c=case: n(*c.args), expected),
        }
    for name in CNNS:
        case = cnn_case(name)
        session = ort_session(case.model)
        expected = session.run(None, case.feeds)[0]
        parameters = compile_function(case.module, "main", "mlir", tiled)
        constants = constant_weights(ARCHITECTURES[name].model(full=True))
        folded = compile_function(constants, "main", "mlir", tiled)
        image = case.feeds["input"]
        found[name] = {
            ORT: lambda s=session, c=case: s.run(None, c.feeds),
            "native, weights as parameters": checked(
                lambda n=parameters, c=case: n(*c.args), expected
            ),
            "native, constant weights": checked(lambda n=folded, i=image: n(i), expected),
        }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=5)
    args = parser.parse_args()
    for name, engines in rows().items():
        times = interleaved_medians(engines, args.rounds, args.calls)
        cells = " | ".join(f"{k} {v:.1f} ms ({v / times[ORT]:.2f}x)" for k, v in times.items())
        print(f"| {name} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
