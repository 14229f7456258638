"""`R.image.resize2d` of NCHW data: the default bilinear half-pixel resize (size as a tuple),
nearest neighbour with `"asymmetric"` coordinates and `rounding_method="floor"`, bicubic with
`"align_corners"`, and a downscale."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), "float32")) -> R.Tuple(R.Tensor((1, 2, 8, 8), "float32"), R.Tensor((1, 2, 6, 5), "float32"), R.Tensor((1, 2, 7, 7), "float32"), R.Tensor((1, 2, 2, 3), "float32")):
        a = R.image.resize2d(x, (8, 8))
        b = R.image.resize2d(x, size=(6, 5), method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor")
        c = R.image.resize2d(x, (7, 7), method="cubic", coordinate_transformation_mode="align_corners", cubic_alpha=-0.5)
        d = R.image.resize2d(x, R.shape([2, 3]), method="linear")
        return (a, b, c, d)
