"""`R.Shape` annotations: with dimensions (`R.Shape([n, 4])`, `R.Shape(["n", 4])` in a
signature), with only a rank (`R.Shape(ndim=2)`), and bare `R.Shape`."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(s: R.Shape(["n", 4]), t: R.Shape(ndim=2), u: R.Shape) -> R.Tuple(
        R.Shape(["n", 4]), R.Shape(ndim=2), R.Shape
    ):
        n = T.int64()
        a: R.Shape([n, 4]) = s
        b: R.Shape(ndim=2) = t
        c: R.Shape = u
        return (a, b, c)
