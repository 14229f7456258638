"""Calls between module functions written `cls.f(x)` (as TVM prints them, after `cls = Module`)
and `Module.f(x)`, a chain of three functions and a function returning a tuple."""

# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def layer(x: R.Tensor(("n", 4), "float32"), w: R.Tensor((4, 4), "float32")) -> R.Tensor(
        ("n", 4), "float32"
    ):
        y = R.matmul(x, w)
        z = R.nn.relu(y)
        return z

    @R.function
    def two_layers(x: R.Tensor(("n", 4), "float32"), w: R.Tensor((4, 4), "float32")) -> R.Tuple(
        R.Tensor(("n", 4), "float32"), R.Tensor(("n", 4), "float32")
    ):
        a = Module.layer(x, w)
        b = Module.layer(a, w)
        return (a, b)

    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), w: R.Tensor((4, 4), "float32")) -> R.Tensor(
        ("n", 4), "float32"
    ):
        cls = Module
        t = cls.two_layers(x, w)
        s = R.add(t[0], t[1])
        return s
