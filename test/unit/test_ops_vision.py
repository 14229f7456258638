"""``relax.vision.roi_align`` in the interpreter, against a NumPy definition in
float64 (Detectron's ROIAlign: bins sampled on a grid, bilinear reads, average or
maximum)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from operator_harness import function

from relax_dialect.interpreter import run
from relax_dialect.interpreter.machine import RelaxRuntimeError
from relax_dialect.ops.fusion import OpPattern, operator_pattern
from relax_dialect.ops.operator import OperatorOp

ROIS = np.array(
    [
        [0, 1.2, 0.5, 6.3, 5.1],
        [1, -2.0, -1.5, 3.0, 2.2],
        [0, 4.4, 3.3, 4.6, 3.5],  # smaller than a pixel
        [1, 7.5, 5.0, 12.0, 9.0],  # partly outside the image
        [0, 0.0, 0.0, 17.9, 13.9],
    ],
    dtype=np.float32,
)


def read(image: np.ndarray, y: float, x: float) -> np.ndarray:
    """Bilinear read of ``image`` ``[C, H, W]``: 0 beyond one pixel outside."""
    height, width = image.shape[1:]
    if y < -1 or x < -1 or y > height or x > width:
        return np.zeros(image.shape[0])
    y, x = min(max(y, 0.0), height - 1.0), min(max(x, 0.0), width - 1.0)
    y0, x0 = math.floor(y), math.floor(x)
    y1, x1 = min(y0 + 1, height - 1), min(x0 + 1, width - 1)
    dy, dx = y - y0, x - x0
    return (
        image[:, y0, x0] * (1 - dy) * (1 - dx)
        + image[:, y0, x1] * (1 - dy) * dx
        + image[:, y1, x0] * dy * (1 - dx)
        + image[:, y1, x1] * dy * dx
    )


def roi_align_reference(
    data: np.ndarray,
    rois: np.ndarray,
    pooled: tuple[int, int],
    scale: float,
    ratio: int = -1,
    aligned: bool = False,
    mode: str = "avg",
) -> np.ndarray:
    out = np.zeros((len(rois), data.shape[1], *pooled))
    for index, roi in enumerate(rois.astype(np.float64)):
        image = data[int(roi[0])].astype(np.float64)
        x1, y1, x2, y2 = roi[1:] * scale
        height, width = (y2 - y1, x2 - x1) if aligned else (max(y2 - y1, 1), max(x2 - x1, 1))
        bin_h, bin_w = height / pooled[0], width / pooled[1]
        grid_h = ratio if ratio > 0 else math.ceil(bin_h)
        grid_w = ratio if ratio > 0 else math.ceil(bin_w)
        for ph, pw in itertools.product(range(pooled[0]), range(pooled[1])):
            samples = [
                read(
                    image,
                    y1 + ph * bin_h + (i + 0.5) * bin_h / grid_h,
                    x1 + pw * bin_w + (j + 0.5) * bin_w / grid_w,
                )
                for i in range(grid_h)
                for j in range(grid_w)
            ]
            if mode == "avg":
                out[index, :, ph, pw] = sum(samples, np.zeros(data.shape[1])) / max(len(samples), 1)
            else:
                out[index, :, ph, pw] = np.max(samples, axis=0)
    return out


def roi_align_module(data: str, attrs: str, rois: str = "[5, 5]"):
    return function(
        f"%x: !relax.tensor<{data}, f32>, %r: !relax.tensor<{rois}, f32>",
        f"%y = relax.vision.roi_align %x, %r {{{attrs}}}",
    )


IMAGES = np.random.default_rng(3).standard_normal((2, 3, 7, 9)).astype(np.float32)


@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("ratio", [-1, 0, 2])
@pytest.mark.parametrize("aligned", [False, True])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_roi_align_modes_and_sampling(mode: str, ratio: int, aligned: bool, scale: float) -> None:
    attrs = (
        f"pooled_size = [2, 3], spatial_scale = {scale}, sample_ratio = {ratio}, "
        f'aligned = {str(aligned).lower()}, mode = "{mode}"'
    )
    got = run(roi_align_module("[2, 3, 7, 9]", attrs), "main", IMAGES, ROIS)
    expected = roi_align_reference(IMAGES, ROIS, (2, 3), scale, ratio, aligned, mode)
    assert got.dtype == np.float32 and got.shape == (5, 3, 2, 3)  # pyright: ignore
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


def test_roi_align_nhwc() -> None:
    data = IMAGES.transpose(0, 2, 3, 1).copy()
    program = roi_align_module(
        "[2, h, w, c]", 'pooled_size = [3, 3], spatial_scale = 0.5, layout = "NHWC"'
    )
    got = run(program, "main", data, ROIS)
    expected = roi_align_reference(IMAGES, ROIS, (3, 3), 0.5).transpose(0, 2, 3, 1)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)  # pyright: ignore


def test_roi_align_rejects_a_batch_index_outside_the_data() -> None:
    program = roi_align_module("[2, 3, 7, 9]", "pooled_size = [2, 2], spatial_scale = 1.0")
    rois = ROIS.copy()
    rois[3, 0] = 2
    with pytest.raises(RelaxRuntimeError, match="batch index 2"):
        run(program, "main", IMAGES, rois)


@pytest.mark.parametrize(
    ("ratio", "kind"), [(2, OpPattern.OUT_EWISE_FUSABLE), (-1, OpPattern.OPAQUE)]
)
def test_fusion_kinds_are_tvms(ratio: int, kind: OpPattern) -> None:
    """TVM 0.25 legalizes a fixed sampling grid to an ``OUT_EWISE_FUSABLE`` reduction,
    an adaptive one to an opaque function."""
    program = roi_align_module(
        "[2, 3, 7, 9]", f"pooled_size = [2, 2], spatial_scale = 1.0, sample_ratio = {ratio}"
    )
    op = next(op for op in program.walk() if isinstance(op, OperatorOp))
    assert operator_pattern(op) is kind
