"""GridSample, RoiAlign and NonMaxSuppression against onnxruntime (symbolic numbers
of boxes and regions), and the operators refused with a reason (sequences, random
numbers), all listed at once."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_check import check, helper, model

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx

RNG = np.random.default_rng(13)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_grid_sample(mode: str, padding: str) -> None:
    x = RNG.standard_normal((2, 3, 5, 4)).astype(np.float32)
    grid = (RNG.random((2, 6, 7, 2)) * 2.4 - 1.2).astype(np.float32)
    node = helper.make_node("GridSample", ["x", "g"], ["y"], mode=mode, padding_mode=padding)
    inputs = {"x": (np.float32, ["n", 3, 5, 4]), "g": (np.float32, ["n", 6, 7, 2])}
    check(model([node], inputs, ["y"], opset=16), {"x": x, "g": grid})


@pytest.mark.parametrize("transform", ["half_pixel", "output_half_pixel"])
def test_roi_align(transform: str) -> None:
    x = RNG.standard_normal((2, 3, 8, 8)).astype(np.float32)
    rois = np.array([[0, 0, 7, 7], [1, 2, 5, 3], [3, 3, 3.5, 3.2]], np.float32)
    batch = np.array([0, 1, 1], np.int64)
    node = helper.make_node(
        "RoiAlign",
        ["x", "rois", "batch"],
        ["y"],
        output_height=3,
        output_width=2,
        sampling_ratio=2,
        spatial_scale=0.5,
        coordinate_transformation_mode=transform,
    )
    inputs = {
        "x": (np.float32, [2, 3, 8, 8]),
        "rois": (np.float32, ["k", 4]),
        "batch": (np.int64, ["k"]),
    }
    check(model([node], inputs, ["y"], opset=16), {"x": x, "rois": rois, "batch": batch})


@pytest.mark.parametrize("center", [0, 1])
def test_non_max_suppression_with_symbolic_boxes(center: int) -> None:
    corners = RNG.random((2, 9, 2)).astype(np.float32) * 8
    sizes = RNG.random((2, 9, 2)).astype(np.float32) * 4 + 0.5
    boxes = np.concatenate([corners, corners + sizes], axis=2)[..., [1, 0, 3, 2]]
    if center:
        boxes = np.concatenate([corners + sizes / 2, sizes], axis=2)
    scores = np.round(RNG.random((2, 3, 9)), 1).astype(np.float32)  # ties
    limits = {"m": np.array([3], np.int64), "iou": np.array([0.3], np.float32)}
    limits["s"] = np.array([0.2], np.float32)
    node = helper.make_node(
        "NonMaxSuppression", ["b", "sc", "m", "iou", "s"], ["y"], center_point_box=center
    )
    inputs = {"b": (np.float32, ["n", "k", 4]), "sc": (np.float32, ["n", 3, "k"])}
    m = model([node], inputs, ["y"], limits, opset=11)
    assert "num_selected" in str(from_onnx(m))
    check(m, {"b": boxes, "sc": scores})
    check(m, {"b": boxes[:1, :0], "sc": scores[:1, :, :0]})  # no box at all


def test_refused_operators_are_listed_with_their_reasons() -> None:
    nodes = [
        helper.make_node("SequenceConstruct", ["x", "x"], ["s"], name="pack"),
        helper.make_node("RandomNormalLike", ["x"], ["r"], name="noise"),
        helper.make_node("Add", ["x", "r"], ["y"]),
    ]
    m = model(nodes, {"x": (np.float32, [2])}, ["y"])
    with pytest.raises(DiagnosticError) as error:
        from_onnx(m)
    text = str(error.value)
    assert (
        "node 'pack' (SequenceConstruct, opset 17): error: ONNX sequences have no Relax type"
        in text
    )
    assert (
        "node 'noise' (RandomNormalLike, opset 17): error: random numbers are not supported" in text
    )
