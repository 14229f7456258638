"""The classifiers' matrix-vector products alone: streamed (`schedules.matrix_vector`) against
the register-tiled schedule they took before, and onnxruntime, in one process.

    python bench/matrix_vector.py [--rounds 15] [--calls 20] [--models]

ONNX ``Gemm`` with ``transB`` and a bias on one row, ResNet-18's ``1 × 512 · 512 × 1000`` and
MobileNetV2's ``1 × 1280 · 1280 × 1000``, with the weights as constants and as parameters:
native code (tiled, one thread) streamed and as before (the matrix-vector schedule taken out
of the transform script, constant weights packed at compile time), and onnxruntime with one
intra-op thread, taking turns (`timing.interleaved_medians`); every result is first checked
against onnxruntime's. With ``--models``, the same for the whole models (``models.cnn_case``,
``models.constant_weights``).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

import numpy as np
from models import cnn_case, constant_weights, ort_session
from native_summary import checked
from onnx import TensorProto, helper, numpy_helper
from onnx_models import ARCHITECTURES
from timing import interleaved_medians

from relax_dialect.frontends.onnx import from_onnx
from relax_xdsl.lowering import toolchain, transposed_operands
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.tiling import transform_script

CLASSIFIERS = {"ResNet-18": 512, "MobileNetV2": 1280}
"""Each model's classifier's depth (1,000 classes)."""
CLASSES = 1000


def classifier(depth: int, transposed: bool = True):
    """``Gemm(x, W, b)``: ``x`` one row of ``depth``, ``W`` ``CLASSES × depth`` with
    ``transB`` (``transposed``), else ``depth × CLASSES``."""
    rng = np.random.default_rng(depth)
    w = rng.standard_normal((CLASSES, depth)).astype(np.float32)
    w = w if transposed else np.ascontiguousarray(w.T)
    b = rng.standard_normal(CLASSES).astype(np.float32)
    node = helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=int(transposed))
    graph = helper.make_graph(
        [node],
        "classifier",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, depth])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, CLASSES])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), [w, b]


@contextlib.contextmanager
def register_tiled() -> Iterator[None]:
    """Compile as before the matrix-vector schedule: its dispatch taken out of the transform
    script, the constant weights of one-row products not stored transposed (packed at compile
    time instead, `prepacked_weights`)."""
    script = transform_script()
    before = "".join(line for line in script.splitlines(True) if "@tile_matrix_vector," not in line)
    saved = toolchain.transform_script, transposed_operands.transposed_constant
    toolchain.transform_script = lambda: before
    transposed_operands.transposed_constant = lambda op: None
    try:
        yield
    finally:
        toolchain.transform_script, transposed_operands.transposed_constant = saved


WEIGHTS = {
    "constants": (True, False),
    "parameters (transB)": (True, True),
    "parameters k x n": (False, True),
}
"""Each way of giving the weights: ``transB``, and as parameters."""


def engines(depth: int) -> dict[str, object]:
    x = np.random.default_rng(1).standard_normal((1, depth)).astype(np.float32)
    model, _ = classifier(depth)
    session = ort_session(model.SerializeToString())
    expected = session.run(None, {"x": x})[0]
    tiled = RunOptions(tile=True)
    found = {"onnxruntime 1T": lambda: session.run(None, {"x": x})}
    for variant in ("streamed", "register-tiled"):
        with register_tiled() if variant == "register-tiled" else contextlib.nullcontext():
            for weights_as, (transposed, parameters) in WEIGHTS.items():
                model, weights = classifier(depth, transposed)
                module = from_onnx(model, params_as_inputs=parameters)
                native = compile_function(module, "main", "mlir", tiled)
                args = [x] + (weights if parameters else [])
                found[f"{variant}, {weights_as}"] = checked(
                    lambda n=native, a=args: n(*a), expected
                )
    return found


def model_engines(name: str) -> dict[str, object]:
    """``name`` of ``CNNS`` as `engines`: weights as parameters and as constants."""
    case = cnn_case(name)
    session = ort_session(case.model)
    expected = session.run(None, case.feeds)[0]
    tiled = RunOptions(tile=True)
    found = {"onnxruntime 1T": lambda: session.run(None, case.feeds)}
    image = case.feeds["input"]
    for variant in ("streamed", "register-tiled"):
        with register_tiled() if variant == "register-tiled" else contextlib.nullcontext():
            parameters = compile_function(case.module, "main", "mlir", tiled)
            constants = constant_weights(ARCHITECTURES[name].model(full=True))
            folded = compile_function(constants, "main", "mlir", tiled)
        found[f"{variant}, parameters"] = checked(lambda n=parameters: n(*case.args), expected)
        found[f"{variant}, constants"] = checked(lambda n=folded: n(image), expected)
    return found


def table(title: str, medians: dict[str, float]) -> None:
    ort = medians["onnxruntime 1T"]
    print(f"\n{title}\n| engine | ms | / onnxruntime |\n|---|---|---|")
    for engine, ms in medians.items():
        print(f"| {engine} | {ms:.3f} | {ms / ort:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--models", action="store_true")
    args = parser.parse_args()
    if args.models:
        for name in ("resnet18", "mobilenet"):
            table(name, interleaved_medians(model_engines(name), args.rounds, args.calls))
        return
    for name, depth in CLASSIFIERS.items():
        medians = interleaved_medians(engines(depth), args.rounds, args.calls)
        table(f"{name}: 1 x {depth} . {depth} x {CLASSES} + bias", medians)


if __name__ == "__main__":
    main()
