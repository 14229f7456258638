"""Symbolic dimensions in parameter and return annotations, written as strings
(`R.Tensor(("n", 4), "float32")`), shared between parameters."""

# ruff: noqa
# run: main n=3 m=5
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), "float32"), y: R.Tensor(("m",), "float32")) -> R.Tensor(
        ("n", "m"), "float32"
    ):
        z = R.add(x, y)
        w = R.subtract(z, x)
        return w
