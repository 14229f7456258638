"""`R.vision.roi_align` with a fixed `sample_ratio`: average and maximum pooling, the pooled
size as a pair and as one integer, `aligned` regions, NCHW and NHWC data. (TVM 0.25 cannot
compile the adaptive sampling grid, `sample_ratio <= 0`: see the next file.)"""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 7, 9), "float32"), rois: R.Tensor((4, 5), "float32"), y: R.Tensor((2, 7, 9, 3), "float32")) -> R.Tuple(R.Tensor((4, 3, 2, 3), "float32"), R.Tensor((4, 3, 2, 2), "float32"), R.Tensor((4, 3, 3, 3), "float32")):
        rel = R.abs(rois)
        r = R.clip(rel, R.prim_value(0), R.prim_value(1))
        a = R.vision.roi_align(x, r, (2, 3), 4.0, sample_ratio=2)
        b = R.vision.roi_align(x, r, pooled_size=2, spatial_scale=5.0, sample_ratio=3, aligned=True, mode="max")
        c = R.vision.roi_align(y, r, [3, 3], 6.0, 1, False, "NHWC", "avg")
        return (a, b, c)
