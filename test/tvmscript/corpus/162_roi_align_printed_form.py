"""`R.vision.roi_align` as TVM prints it, with the adaptive sampling grid (`sample_ratio=-1`,
which TVM 0.25 infers but cannot compile) and symbolic region counts."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("b", "c", "h", "w"), dtype="float32"), r: R.Tensor(("n", 5), dtype="float32")) -> R.Tensor(("n", 7, 7, "w"), dtype="float32"):
        n = T.int64()
        c = T.int64()
        w = T.int64()
        a: R.Tensor((n, c, 2, 3), dtype="float32") = R.vision.roi_align(x, r, pooled_size=[2, 3], spatial_scale=0.25, sample_ratio=-1, aligned=False, layout="NCHW", mode="avg")
        b: R.Tensor((n, 7, 7, w), dtype="float32") = R.vision.roi_align(x, r, pooled_size=[7, 7], spatial_scale=1.0, sample_ratio=0, aligned=True, layout="NHWC", mode="max")
        return b
