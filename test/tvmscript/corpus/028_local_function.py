"""A local function that captures nothing, bound in the body and called, plus a local function
passed to another module function."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def apply(
        f: R.Callable((R.Tensor((2, 2), "float32"),), R.Tensor((2, 2), "float32")),
        x: R.Tensor((2, 2), "float32"),
    ) -> R.Tensor((2, 2), "float32"):
        y = f(x)
        return y

    @R.function
    def main(x: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
        cls = Module

        @R.function
        def square_plus_one(a: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
            b = R.multiply(a, a)
            c = R.add(b, R.const(1.0, "float32"))
            return c

        y = square_plus_one(x)
        z = cls.apply(square_plus_one, y)
        return z
