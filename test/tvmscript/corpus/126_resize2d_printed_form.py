"""`R.image.resize2d` in the form TVM prints: the size as `R.shape([...])`, every attribute as a
keyword (`roi`, `layout`, `method`, `coordinate_transformation_mode`, `rounding_method`,
`cubic_alpha`, `cubic_exclude`, `extrapolation_value`, `out_dtype="void"`), NHWC layout."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 3, 2), dtype="float32")) -> R.Tensor((1, 5, 4, 2), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((1, 5, 4, 2), dtype="float32") = R.image.resize2d(x, R.shape([5, 4]), roi=[T.float32(0.0), T.float32(0.0), T.float32(0.0), T.float32(0.0)], layout="NHWC", method="linear", coordinate_transformation_mode="half_pixel", rounding_method="round", cubic_alpha=-0.75, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void")
            R.output(gv)
        return gv
