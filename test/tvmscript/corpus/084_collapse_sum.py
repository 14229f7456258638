"""`R.collapse_sum_like` and `R.collapse_sum_to`, the adjoints of broadcasting: leading axes
summed away, length-1 target axes summed with the length kept."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(g: R.Tensor((2, 3, 4), "float32"), like: R.Tensor((3, 1), "float32")) -> R.Tuple(R.Tensor((3, 1), "float32"), R.Tensor((4,), "float32"), R.Tensor((1, 3, 4), "float32")):
        a = R.collapse_sum_like(g, like)
        b = R.collapse_sum_to(g, (4,))
        c = R.collapse_sum_to(g, R.shape([1, 3, 4]))
        return (a, b, c)
