"""`R.atan2` (all four quadrants) and `R.log_add_exp` on floats with broadcasting."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(y: R.Tensor((4, 3), "float32"), x: R.Tensor((4, 1), "float32")) -> R.Tuple(
        R.Tensor((4, 3), "float32"), R.Tensor((4, 3), "float32")
    ):
        a = R.atan2(y, x)
        l = R.log_add_exp(y, x)
        return (a, l)
