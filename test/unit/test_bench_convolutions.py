"""``bench/convolutions.py --onnxruntime``: each kind of kernel's ONNX node computes what its
Relax operator computes (the reference interpreter), on small sizes with odd channels, so that
the onnxruntime column times the same work."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from relax_xdsl.lowering.backends import compile_function

onnxruntime = pytest.importorskip("onnxruntime")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import convolutions  # noqa: E402
from models import ort_session  # noqa: E402

KERNELS = [
    convolutions.conv("3x3", 3, 9, 5, 3),
    convolutions.conv("7x7/2", 3, 17, 7, 7, 2),
    convolutions.conv("3x3/2", 7, 9, 3, 3, 2),
    convolutions.conv("1x1/2", 5, 7, 3, 1, 2),
    convolutions.conv("depthwise 3x3", 7, 9, 7, 3, 1, 7),
    convolutions.transposed("transposed 3x3/2", 3, 5, 7, 3, 2),
    convolutions.pool(
        "max pool 3x3/2",
        "max_pool2d",
        3,
        9,
        "pool_size = [3, 3], strides = [2, 2], padding = [1]",
        9,
        5,
        ("MaxPool", {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1] * 4}),
    ),
    convolutions.pool(
        "global avg",
        "adaptive_avg_pool2d",
        5,
        7,
        "output_size = [1, 1]",
        49,
        1,
        ("GlobalAveragePool", {}),
    ),
]


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda kernel: kernel.name)
def test_the_onnx_node_computes_the_relax_operator(kernel: convolutions.Kernel):
    inputs = kernel.inputs()
    module = convolutions._parse(kernel.text(constant=kernel.weight is not None))
    expected = np.asarray(compile_function(module, "main", "reference")(inputs[0]))
    session = ort_session(kernel.onnx_model())
    [actual] = session.run(None, {"x": inputs[0]})
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4)
