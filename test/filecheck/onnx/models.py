# RUN: python %s --check %S/Inputs
"""The small ONNX models the lit tests of this directory read (``Inputs/*.onnx``):
``python models.py Inputs`` writes them, ``--check`` (this file's lit test)
fails when a checked-in model is not what this script makes."""

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _model(nodes, inputs, outputs, initializers=(), opset=17, domains=()):  # noqa: ANN001, ANN202
    graph = helper.make_graph(nodes, "lit", inputs, outputs, list(initializers))
    opsets = [helper.make_opsetid("", opset), *(helper.make_opsetid(d, 1) for d in domains)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="models.py")
    model.ir_version = 9
    return model


def heads() -> onnx.ModelProto:
    """BERT's reshape to heads, the target computed from ``Shape``."""
    const = numpy_helper.from_array
    return _model(
        [
            helper.make_node("Shape", ["x"], ["shape"]),
            helper.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
            helper.make_node("Gather", ["shape", "one"], ["seq"], axis=0),
            helper.make_node("Unsqueeze", ["batch", "axis0"], ["batch1"]),
            helper.make_node("Unsqueeze", ["seq", "axis0"], ["seq1"]),
            helper.make_node("Concat", ["batch1", "seq1", "heads"], ["target"], axis=0),
            helper.make_node("Reshape", ["x", "target"], ["split"], name="to_heads"),
            helper.make_node("Transpose", ["split"], ["y"], perm=[0, 2, 1, 3]),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 768])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 12, "seq", 64])],
        [
            const(np.array(0, np.int64), "zero"),
            const(np.array(1, np.int64), "one"),
            const(np.array([0], np.int64), "axis0"),
            const(np.array([12, 64], np.int64), "heads"),
        ],
    )


def weights() -> onnx.ModelProto:
    """A 2 KiB weight (a blob) and a small bias (inline)."""
    w = np.arange(512, dtype=np.float32).reshape(2, 256) / 512
    return _model(
        [
            helper.make_node("Mul", ["x", "w"], ["t"]),
            helper.make_node("Add", ["t", "b"], ["y"]),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 2, 256])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 2, 256])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.float32([0.5]), "b")],
    )


def unsupported() -> onnx.ModelProto:
    """Two nodes the importer cannot convert, and one after them."""
    return _model(
        [
            helper.make_node("Bernoulli", ["x"], ["d"], name="coin"),
            helper.make_node("Relu", ["d"], ["r"], name="after"),
            helper.make_node("Custom", ["x"], ["c"], name="custom", domain="com.example"),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
        [
            helper.make_tensor_value_info("r", TensorProto.FLOAT, [2, 2]),
            helper.make_tensor_value_info("c", TensorProto.FLOAT, [2, 2]),
        ],
        domains=["com.example"],
    )


def reduce_axes() -> onnx.ModelProto:
    """A sum over axes fed at run time (opset 18's ``axes`` input), and a mask whose
    length ``m`` the bound axes do not fix."""
    return _model(
        [
            helper.make_node("ReduceSum", ["x", "axes"], ["s"], name="sum", keepdims=0),
            helper.make_node("Mul", ["s", "mask"], ["y"], name="masked"),
        ],
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4]),
            helper.make_tensor_value_info("axes", TensorProto.INT64, [1]),
            helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["m", 1]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["m", "n"])],
        opset=18,
    )


MODELS = {
    "heads": heads,
    "weights": weights,
    "unsupported": unsupported,
    "reduce_axes": reduce_axes,
}


def main(argv: list[str]) -> int:
    check = argv[:1] == ["--check"]
    directory = Path(argv[-1])
    stale = []
    for name, make in MODELS.items():
        path = directory / f"{name}.onnx"
        data = make().SerializeToString()
        if check and (not path.exists() or path.read_bytes() != data):
            stale.append(path.name)
        elif not check:
            path.write_bytes(data)
    if stale:
        print(f"stale: {', '.join(stale)} (run: python {__file__} {directory})")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
