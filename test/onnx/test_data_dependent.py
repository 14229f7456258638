"""Operators whose result lengths depend on the data (NonZero, Unique, Compress, TopK
with a run-time k) against onnxruntime, with symbolic input dimensions, on the
reference and lowered backends: each result length is a fresh symbolic variable."""

from __future__ import annotations

import numpy as np
from onnx_check import check, helper, model

from relax_dialect.frontends.onnx import from_onnx

RNG = np.random.default_rng(3)


def signature(m) -> str:
    """The printed signature and bindings of ``@main``."""
    return str(from_onnx(m))


def sparse(*shape: int) -> np.ndarray:
    return (RNG.integers(-2, 3, shape) * (RNG.random(shape) < 0.3)).astype(np.float32)


def test_nonzero_length_is_a_fresh_variable() -> None:
    m = model([helper.make_node("NonZero", ["x"], ["y"])], {"x": (np.float32, ["n", 3])}, ["y"])
    assert "!relax.tensor<[2, num_nonzero], i64>" in signature(m)
    for rows in (0, 1, 6):
        check(m, {"x": sparse(rows, 3)})


def test_nonzero_of_nothing_nonzero() -> None:
    m = model([helper.make_node("NonZero", ["x"], ["y"])], {"x": (np.int32, ["n"])}, ["y"])
    check(m, {"x": np.zeros(4, np.int32)})


def test_unique_all_outputs_unsorted_and_sorted() -> None:
    x = RNG.integers(0, 4, 9).astype(np.float32)
    for is_sorted in (0, 1):
        node = helper.make_node("Unique", ["x"], ["y", "i", "v", "c"], sorted=is_sorted)
        m = model([node], {"x": (np.float32, ["n"])}, ["y", "i", "v", "c"], opset=11)
        text = signature(m)
        assert "[num_unique], f32>" in text and "[n], i64>" in text
        check(m, {"x": x})


def test_unique_along_an_axis_keeps_the_other_dimensions() -> None:
    x = np.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [1, 0, 0]], np.int64)
    node = helper.make_node("Unique", ["x"], ["y", "", "v"], axis=0)
    m = model([node], {"x": (np.int64, ["n", 3])}, ["y", "v"], opset=11)
    assert "[num_unique, 3], i64>" in signature(m)
    check(m, {"x": x})


def test_compress_with_and_without_axis() -> None:
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    condition = np.array([True, False, True])
    for attrs in ({"axis": 1}, {}):
        node = helper.make_node("Compress", ["x", "c"], ["y"], **attrs)
        m = model([node], {"x": (np.float32, ["n", 3]), "c": (np.bool_, [3])}, ["y"])
        assert "num_selected" in signature(m)
        check(m, {"x": x, "c": condition})


def test_topk_with_a_runtime_k() -> None:
    x = RNG.standard_normal((3, 7)).astype(np.float32)
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1, largest=0)
    m = model([node], {"x": (np.float32, ["n", 7]), "k": (np.int64, [1])}, ["v", "i"])
    assert "[n, top_k], f32>" in signature(m)
    for k in (0, 2, 7):
        check(m, {"x": x, "k": np.array([k], np.int64)})
