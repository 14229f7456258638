"""A private function (`private=True`) called from the public one as `cls.helper(...)`."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(private=True)
    def helper(a: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32")) -> R.Tensor(
        (4,), "float32"
    ):
        c = R.multiply(a, b)
        d = R.add(c, a)
        return d

    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor(
        (4,), "float32"
    ):
        cls = Module
        z = cls.helper(x, y)
        w = cls.helper(z, x)
        return w
