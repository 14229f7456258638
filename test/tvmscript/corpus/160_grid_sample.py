"""`R.image.grid_sample` of NCHW data at a `[N, 2, H_out, W_out]` grid: bilinear with the
default zero padding, nearest with `"border"`, bicubic with `"reflection"` and aligned
corners. TVM 0.25 infers the spatial sizes from the grid's dimensions 1 and 2
(its kernel computes `[N, C, H_out, W_out]`), so the results are annotated by rank only."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 5, 6), "float32"), grid: R.Tensor((2, 2, 4, 7), "float32")) -> R.Tuple(R.Tensor(dtype="float32", ndim=4), R.Tensor(dtype="float32", ndim=4), R.Tensor(dtype="float32", ndim=4)):
        a = R.image.grid_sample(x, grid)
        b = R.image.grid_sample(x, grid, method="nearest", padding_mode="border")
        c = R.image.grid_sample(x, grid, method="bicubic", layout="NCHW", padding_mode="reflection", align_corners=True)
        return (a, b, c)
