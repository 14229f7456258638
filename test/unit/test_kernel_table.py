"""``bench/kernel_table.py``: the flops, bytes and keys of kernels read from their linalg
operations (small kernels, counted by hand, symbolic sizes given by the arguments), the keys of
onnxruntime's nodes, and the table built from samples."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from kernel_profile import Kernel, descriptions, ort_node_key
from kernel_table import Row, rows, table

DENSE = """from tvm.script import ir as I, relax as R, tirx as T

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5), "float32"), w: R.Tensor((5, 7), "float32"),
             b: R.Tensor((7,), "float32")) -> R.Tensor(("n", 7), "float32"):
        n = T.int64()
        with R.dataflow():
            y = R.nn.relu(R.add(R.matmul(x, w), b))
            R.output(y)
        return y
"""
CONVOLUTION = """from tvm.script import ir as I, relax as R, tirx as T

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, 9, 9), "float32"), w: R.Tensor((4, 3, 3, 3), "float32")):
        n = T.int64()
        with R.dataflow():
            y = R.nn.conv2d(x, w, strides=[2, 2], padding=[1, 1, 1, 1])
            z = R.nn.conv2d(y, R.ones((6, 4, 1, 1), "float32"))
            R.output(z)
        return z
"""
"""A 3 × 3/2 convolution of 3 channels into 4 (9 × 9 → 5 × 5), then a 1 × 1 one into 6."""


def kernels_of(text: str, *shapes: tuple[int, ...]) -> list[Kernel]:
    arrays = [np.zeros(shape, np.float32) for shape in shapes]
    return list(descriptions(parse_tvmscript(text, "kernel.py"), arrays).values())


@pytest.mark.parametrize("rows_of_x", [1, 3, 17])
def test_a_dense_layer_counts_its_product_bias_and_activation(rows_of_x: int) -> None:
    [kernel] = kernels_of(DENSE, (rows_of_x, 5), (5, 7), (7,))
    assert kernel.key == f"product {rows_of_x}x5 @ 5x7"
    # a multiply-add per point of n × 7 × 5, then the bias and the ReLU per result
    assert kernel.flops == 2 * rows_of_x * 7 * 5 + rows_of_x * 7 + rows_of_x * 7
    assert kernel.bytes == 4 * (rows_of_x * 5 + 5 * 7 + 7 + rows_of_x * 7)
    assert kernel.calls == 1


def test_convolutions_count_their_windows_and_keep_onnx_shapes() -> None:
    found = {k.key: k for k in kernels_of(CONVOLUTION, (3, 3, 9, 9), (4, 3, 3, 3))}
    assert set(found) == {"convolution 4x3x3x3 -> 4x5x5", "convolution 6x4x1x1 -> 6x5x5"}
    # a multiply-add per tap of the window per output of each of the 3 images
    assert found["convolution 4x3x3x3 -> 4x5x5"].flops == 2 * 3 * (4 * 5 * 5) * (3 * 3 * 3)
    assert found["convolution 6x4x1x1 -> 6x5x5"].flops == 2 * 3 * (6 * 5 * 5) * 4


def test_onnxruntime_nodes_have_the_keys_of_the_kernels_computing_them() -> None:
    def node(op: str, *shapes: list[int]) -> dict:
        *inputs, output = shapes
        return {
            "op_name": op,
            "input_type_shape": [{"float": shape} for shape in inputs],
            "output_type_shape": [{"float": output}],
        }

    model = [([144, 1, 3, 3], [1, 144, 56, 56]), ([24, 144, 1, 1], [1, 24, 56, 56])]
    model += [([144, 24, 1, 1], [1, 144, 56, 56]), ([32, 3, 3, 3], [1, 32, 112, 112])]

    def key(node: dict) -> str:
        return ort_node_key(node, model)

    assert key(node("Gemm", [3, 5], [5, 7], [7], [3, 7])) == "product 3x5 @ 5x7"
    batched = node("FusedMatMul", [1, 12, 128, 64], [1, 12, 64, 128], [1, 12, 128, 128])
    assert key(batched) == "product 12 x 128x64 @ 64x128"
    weights = node("MatMul", [8, 128, 768], [768, 3072], [8, 128, 3072])
    assert key(weights) == "product 1024x768 @ 768x3072"
    depthwise = node("FusedConv", [1, 144, 56, 56], [144, 1, 3, 3], [1, 144, 56, 56])
    assert key(depthwise) == "convolution 144x1x3x3 -> 144x56x56"
    # NCHWc: 24 channels padded to 32, in the output or the input, found in the model
    assert key(node("Conv", [1, 144, 56, 56], [32, 144, 1, 1], [1, 32, 56, 56])) == (
        "convolution 24x144x1x1 -> 24x56x56"
    )
    assert key(node("Conv", [1, 32, 56, 56], [144, 32, 1, 1], [1, 144, 56, 56])) == (
        "convolution 144x24x1x1 -> 144x56x56"
    )
    assert key(node("Conv", [1, 3, 224, 224], [32, 3, 3, 3], [1, 32, 112, 112])) == (
        "convolution 32x3x3x3 -> 32x112x112"
    )
    # not in the model: its own shapes
    assert key(node("Conv", [1, 64, 8, 8], [64, 64, 3, 3], [1, 64, 8, 8])) == (
        "convolution 64x64x3x3 -> 64x8x8"
    )
    assert key(node("Softmax", [1, 12, 128, 128], [1, 12, 128, 128])) == "Softmax"


def test_rows_share_the_time_by_samples_and_group_kernels_by_key() -> None:
    kernels = {
        "a": Kernel(2, "first", "product 3x5 @ 5x7", 3_000_000_000, 60_000_000),
        "b": Kernel(1, "second", "product 3x5 @ 5x7", 1_000_000_000, 20_000_000),
        "c": Kernel(1, "softmax", "", 10_000_000, 40_000_000),
        "d": Kernel(1, "never sampled", "", 5, None),
    }
    samples = {"a": 30.0, "b": 10.0, "c": 5.0, "libc memset": 5.0}
    onnxruntime = {"product 3x5 @ 5x7": 20.0, "Softmax": 5.0}
    found = rows(samples, kernels, 100.0, onnxruntime)
    assert [(row.key, row.calls, round(row.milliseconds, 6)) for row in found] == [
        ("product 3x5 @ 5x7", 3, 80.0),
        ("c", 1, 10.0),
        ("libc memset", 0, 10.0),
        ("d", 1, 0.0),
    ]
    product = found[0]
    assert (product.flops, product.bytes, product.onnxruntime) == (4e9, 8e7, 20.0)
    assert "(and 1 more of this shape)" in product.what
    lines = table(found, 100.0, onnxruntime, peak=100.0).splitlines()
    # 4 GFLOP in 80 ms: 50 GFLOP/s, half the peak; 80 MB: 1 GB/s; 80 ms against 20: 4×
    assert lines[2].endswith("| 3 | 80.00 | 80.0% | 4000.0 | 50.0 | 50% | 1.0 | 20.00 | 4.00x |")
    assert lines[3].endswith("| 1 | 10.00 | 10.0% | 10.0 | 1.0 | 1% | 4.0 | — | — |")
    assert lines[-4].startswith("| **kernels matched to onnxruntime's nodes** | 3 | 80.00 |")
    assert lines[-4].endswith("| 20.00 | 4.00x |")
    # the model: every kernel's flops, 100 ms against onnxruntime's 25 ms
    model = "| **the model** | 5 | 100.00 | 100.0% | 4010.0 | 40.1 | 40% | — | 25.00 | 4.00x |"
    assert lines[-3] == model
    assert lines[-1] == "onnxruntime's other nodes (ms): Softmax 5.00."


def test_a_row_without_flops_shows_none() -> None:
    row = Row("libmvec expf", "libmvec expf", 0, 1.0, None, None, None)
    assert table([row], 1.0, {}, peak=1.0).splitlines()[2] == (
        "| libmvec expf | — | 1.00 | 100.0% | — | — | — | — | — | — |"
    )
