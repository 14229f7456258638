"""``grid_sample`` and ``roi_align`` composed as TVM 0.25's ONNX importer composes
them for ONNX's ``GridSample`` and ``RoiAlign``, against ONNX Runtime (skipped
without ``onnx`` and ``onnxruntime``). This checks, for instance, the adaptive
sampling grid of ``roi_align``, which TVM 0.25 cannot compile."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from operator_harness import function

from relax_dialect.interpreter import run

onnx = pytest.importorskip("onnx")
onnxruntime = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper  # noqa: E402

RNG = np.random.default_rng(11)


def onnx_run(node, inputs: dict[str, np.ndarray], output_shape: list[int], opset: int):
    """ONNX Runtime's result of the single ``node``."""
    graph = helper.make_graph(
        [node],
        "g",
        [
            helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
            for name, v in inputs.items()
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, output_shape)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, inputs)[0]


@pytest.mark.parametrize(
    ("mode", "padding", "aligned"),
    list(
        itertools.product(["linear", "nearest", "cubic"], ["zeros", "border", "reflection"], [0, 1])
    ),
)
def test_grid_sample_as_onnx_gridsample(mode: str, padding: str, aligned: int) -> None:
    x = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)
    grid = RNG.uniform(-1.3, 1.3, (2, 4, 7, 2)).astype(np.float32)
    node = helper.make_node(
        "GridSample", ["x", "grid"], ["y"], mode=mode, padding_mode=padding, align_corners=aligned
    )
    expected = onnx_run(node, {"x": x, "grid": grid}, [2, 3, 4, 7], opset=20)
    method = {"linear": "bilinear", "cubic": "bicubic"}.get(mode, mode)
    program = function(
        "%x: !relax.tensor<[2, 3, 5, 6], f32>, %g: !relax.tensor<[2, 4, 7, 2], f32>",
        "%t = relax.permute_dims %g {axes = [0, 3, 1, 2]}",
        f'%y = relax.image.grid_sample %x, %t {{method = "{method}", padding_mode = "{padding}", '
        f"align_corners = {str(bool(aligned)).lower()}}}",
    )
    np.testing.assert_allclose(run(program, "main", x, grid), expected, rtol=1e-4, atol=1e-4)  # pyright: ignore


@pytest.mark.parametrize(
    ("half_pixel", "sampling_ratio", "scale"),
    list(itertools.product([False, True], [0, 2], [1.0, 0.5])),
)
def test_roi_align_as_onnx_roialign(half_pixel: bool, sampling_ratio: int, scale: float) -> None:
    """Average pooling (ONNX Runtime's ``max`` takes the maximum of weighted corners,
    not of samples: it differs from TVM's by design). ``half_pixel`` shifts the scaled
    region by half a pixel: the regions shift by ``0.5 / spatial_scale`` (TVM 0.25's
    importer shifts them by 0.5, right only for a scale of 1)."""
    x = RNG.standard_normal((2, 3, 7, 9)).astype(np.float32)
    corners = RNG.uniform(-2, 10, (6, 2))
    rois = np.concatenate([corners, corners + RNG.uniform(0.2, 8, (6, 2))], axis=1)
    rois = rois.astype(np.float32)
    batches = RNG.integers(0, 2, 6).astype(np.int64)
    node = helper.make_node(
        "RoiAlign",
        ["x", "rois", "batches"],
        ["y"],
        output_height=2,
        output_width=3,
        sampling_ratio=sampling_ratio,
        spatial_scale=scale,
        coordinate_transformation_mode="half_pixel" if half_pixel else "output_half_pixel",
    )
    expected = onnx_run(node, {"x": x, "rois": rois, "batches": batches}, [6, 3, 2, 3], 16)
    shift = np.float32(-0.5 / scale if half_pixel else 0.0)
    regions = np.concatenate([batches[:, None].astype(np.float32), rois + shift], axis=1)
    program = function(
        "%x: !relax.tensor<[2, 3, 7, 9], f32>, %r: !relax.tensor<[6, 5], f32>",
        f"%y = relax.vision.roi_align %x, %r {{pooled_size = [2, 3], spatial_scale = {scale}, "
        f"sample_ratio = {sampling_ratio}, aligned = {str(half_pixel).lower()}}}",
    )
    np.testing.assert_allclose(run(program, "main", x, regions), expected, rtol=1e-4, atol=1e-4)  # pyright: ignore
