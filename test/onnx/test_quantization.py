"""Quantization converters against onnxruntime: per tensor and per axis, without a
zero point, blocked, DynamicQuantizeLinear, the integer products (per-row and
per-column parameters)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_check import check, helper, model, single

RNG = np.random.default_rng(5)


def onnx_reference(m, feeds: dict) -> list[np.ndarray]:
    """ONNX's reference outputs: onnxruntime rounds requantized ties differently
    (in single precision) from the reference, which the node suite follows."""
    from onnx.reference import ReferenceEvaluator

    return ReferenceEvaluator(m).run(None, feeds)


def test_quantize_per_axis_and_dequantize_back() -> None:
    x = (RNG.standard_normal((2, 3, 4)) * 20).astype(np.float32)
    scale = np.array([0.5, 0.25, 2.0], np.float32)
    zero_point = np.array([0, 10, -3], np.int8)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1),
    ]
    m = model(nodes, {"x": (np.float32, ["n", 3, 4])}, ["q", "y"], {"s": scale, "z": zero_point})
    check(m, {"x": x})


def test_quantize_without_zero_point_is_uint8() -> None:
    x = (RNG.standard_normal((5,)) * 50).astype(np.float32)
    check(
        single("QuantizeLinear", {"x": x}, initializers={"s": np.array(0.3, np.float32)}), {"x": x}
    )


@pytest.mark.parametrize("scale", [1.0, 40.0, -7.0])
def test_dynamic_quantize_linear(scale: float) -> None:
    x = (RNG.standard_normal((3, 4)) * scale).astype(np.float32)
    check(single("DynamicQuantizeLinear", {"x": x}, outputs=3, opset=11), {"x": x})


def test_matmul_integer_with_a_zero_point_per_row() -> None:
    a = RNG.integers(0, 255, (4, 3)).astype(np.uint8)
    b = RNG.integers(0, 255, (3, 2)).astype(np.uint8)
    zero_points = {"az": np.array([1, 2, 3, 4], np.uint8), "bz": np.array([5, 6], np.uint8)}
    node = helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])
    m = model([node], {"a": (np.uint8, [4, 3]), "b": (np.uint8, [3, 2])}, ["y"], zero_points)
    rows = a.astype(np.int32) - zero_points["az"].astype(np.int32)[:, None]
    want = rows @ (b.astype(np.int32) - zero_points["bz"].astype(np.int32))
    check(m, {"a": a, "b": b}, [want])  # onnxruntime takes one zero point per tensor only


def test_qlinear_matmul() -> None:
    a = RNG.integers(-128, 127, (2, 4, 3)).astype(np.int8)
    b = RNG.integers(-128, 127, (3, 5)).astype(np.int8)
    params = {
        "as": np.array(0.02, np.float32),
        "az": np.array(3, np.int8),
        "bs": np.array(0.03, np.float32),
        "bz": np.array(-2, np.int8),
        "ys": np.array(0.5, np.float32),
        "yz": np.array(7, np.int8),
    }
    names = ["a", "as", "az", "b", "bs", "bz", "ys", "yz"]
    node = helper.make_node("QLinearMatMul", names, ["y"])
    m = model([node], {"a": (np.int8, ["n", 4, 3]), "b": (np.int8, [3, 5])}, ["y"], params)
    feeds = {"a": a, "b": b}
    check(m, feeds, onnx_reference(m, feeds))


def test_blocked_quantization_and_back() -> None:
    x = (RNG.standard_normal((2, 5)) * 30).astype(np.float32)
    params = {"s": np.array([[0.5, 2.0, 1.0], [0.1, 0.3, 4.0]], np.float32)}
    params["z"] = np.array([[1, -2, 0], [3, 4, -5]], np.int8)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1, block_size=2),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1, block_size=2),
    ]
    m = model(nodes, {"x": (np.float32, [2, 5])}, ["q", "y"], params, opset=21)
    check(m, {"x": x}, onnx_reference(m, {"x": x}))


def test_qlinear_conv_with_per_channel_scales_and_bias() -> None:
    x = RNG.integers(0, 255, (1, 2, 6, 6)).astype(np.uint8)
    params = {
        "xs": np.array(0.05, np.float32),
        "xz": np.array(128, np.uint8),
        "w": RNG.integers(-100, 100, (3, 2, 3, 3)).astype(np.int8),
        "ws": np.array([0.01, 0.02, 0.03], np.float32),
        "wz": np.array(0, np.int8),
        "ys": np.array(0.2, np.float32),
        "yz": np.array(120, np.uint8),
        "b": np.array([100, -50, 7], np.int32),
    }
    names = ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"]
    node = helper.make_node("QLinearConv", names, ["y"], pads=[1, 1, 1, 1], strides=[2, 1])
    m = model([node], {"x": (np.uint8, ["n", 2, 6, 6])}, ["y"], params)
    check(m, {"x": x}, onnx_reference(m, {"x": x}))


def test_conv_integer() -> None:
    x = RNG.integers(0, 255, (2, 1, 5, 5)).astype(np.uint8)
    w = RNG.integers(0, 255, (2, 1, 2, 2)).astype(np.uint8)
    zero_points = {"xz": np.array(12, np.uint8), "wz": np.array(3, np.uint8)}
    node = helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], dilations=[2, 2])
    m = model(
        [node], {"x": (np.uint8, [2, 1, 5, 5]), "w": (np.uint8, [2, 1, 2, 2])}, ["y"], zero_points
    )
    check(m, {"x": x, "w": w})
