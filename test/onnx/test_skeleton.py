"""The importer's skeleton end to end: a few converters against onnxruntime."""

from __future__ import annotations

import numpy as np
from onnx_check import check, helper, model, single

RNG = np.random.default_rng(0)


def test_add_and_relu_against_onnxruntime() -> None:
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    y = RNG.standard_normal((3,)).astype(np.float32)
    nodes = [helper.make_node("Add", ["x", "y"], ["s"]), helper.make_node("Relu", ["s"], ["r"])]
    m = model(nodes, {"x": (np.float32, [2, 3]), "y": (np.float32, [3])}, ["r"])
    check(m, {"x": x, "y": y})


def test_reshape_with_a_constant_target() -> None:
    x = RNG.standard_normal((2, 6)).astype(np.float32)
    check(
        single("Reshape", {"x": x}, initializers={"shape": np.array([0, 3, -1], np.int64)}),
        {"x": x},
    )
