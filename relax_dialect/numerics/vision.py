"""Kernels of the vision operators, with ``topi.vision``'s numerics: ``roi_align``
computes coordinates and weights in the regions' data type, in TVM's order of
operations, and reduces each bin's samples in row-major order."""

from __future__ import annotations

import numpy as np

from ..ops.operator import OperatorOp
from ..ops.vision import ROIAlignOp, ROIAlignSettings
from . import evaluates
from .arithmetic import lowest
from .common import Kernel, result_form


def bilinear(image: np.ndarray, y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``image`` (``[C, H, W]``) at point (y, x) of the region's kind: 0 beyond one
    pixel outside, else the 4 pixels around the point clamped into the image,
    those outside it counting 0 (``[C]``)."""
    height, width = image.shape[1:]
    kind = y.dtype.type
    if y < kind(-1) or x < kind(-1) or y > kind(height) or x > kind(width):
        return np.zeros(image.shape[0], image.dtype)
    y = min(max(y, kind(0)), kind(height - 1))
    x = min(max(x, kind(0)), kind(width - 1))
    y_floor, x_floor = np.floor(y), np.floor(x)
    y_high, x_high = y - y_floor, x - x_floor
    y_low, x_low = kind(1) - y_high, kind(1) - x_high
    row, column = int(y_floor), int(x_floor)
    value = np.zeros(image.shape[0], image.dtype)
    for x_weight, c in ((x_low, column), (x_high, column + 1)):
        for y_weight, r in ((y_low, row), (y_high, row + 1)):
            if 0 <= r < height and 0 <= c < width:
                value = value + x_weight * y_weight * image[:, r, c]
    return value


def roi_align(data: np.ndarray, rois: np.ndarray, settings: ROIAlignSettings) -> np.ndarray:
    """ROI align of ``NCHW`` data: ``[num_roi, C, pooled_h, pooled_w]`` in the
    regions' data type."""
    kind = rois.dtype.type
    pooled_h, pooled_w = settings.pooled_size
    out = np.zeros((rois.shape[0], data.shape[1], pooled_h, pooled_w), rois.dtype)
    scale = kind(settings.spatial_scale)
    for index, roi in enumerate(rois):
        batch = int(roi[0])
        if not 0 <= batch < data.shape[0]:
            raise IndexError(
                f"region {index} has batch index {batch}, outside [0, {data.shape[0]})"
            )
        image = data[batch].astype(rois.dtype)
        start_w, start_h, end_w, end_h = (roi[k] * scale for k in range(1, 5))
        size_h, size_w = end_h - start_h, end_w - start_w
        if not settings.aligned:
            size_h, size_w = max(size_h, kind(1)), max(size_w, kind(1))
        bin_h, bin_w = size_h / kind(pooled_h), size_w / kind(pooled_w)
        if settings.sample_ratio > 0:
            grid_h = grid_w = settings.sample_ratio
        else:
            grid_h, grid_w = int(np.ceil(bin_h)), int(np.ceil(bin_w))
        count = kind(grid_h * grid_w)
        for ph, pw in np.ndindex(pooled_h, pooled_w):
            top, left = start_h + kind(ph) * bin_h, start_w + kind(pw) * bin_w
            if settings.mode == "avg":
                total = np.zeros(data.shape[1], rois.dtype)
            else:
                total = np.full(data.shape[1], lowest(rois.dtype), rois.dtype)
            for rh, rw in np.ndindex(grid_h, grid_w):
                y = top + (kind(rh) + kind(0.5)) * bin_h / kind(grid_h)
                x = left + (kind(rw) + kind(0.5)) * bin_w / kind(grid_w)
                sample = bilinear(image, y, x)
                if settings.mode == "avg":
                    total = total + sample / count
                else:
                    total = np.maximum(total, sample)
            out[index, :, ph, pw] = total
    return out


@evaluates(ROIAlignOp)
def _roi_align(op: OperatorOp) -> Kernel:
    assert isinstance(op, ROIAlignOp)
    settings = op.settings()
    nhwc = settings.layout == "NHWC"
    form = result_form(op)

    def apply(data: np.ndarray, rois: np.ndarray) -> object:
        if not np.issubdtype(rois.dtype, np.floating):
            raise TypeError(f"relax.vision.roi_align: the rois must be floats, got {rois.dtype}")
        x = data.transpose(0, 3, 1, 2) if nhwc else data
        pooled = roi_align(x, rois, settings)
        return form((pooled.transpose(0, 2, 3, 1) if nhwc else pooled).astype(data.dtype))

    return apply
