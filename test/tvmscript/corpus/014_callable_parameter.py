"""`R.Callable` annotations: a function parameter of callable type that the body calls, and a
module function passed as the argument."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def apply_twice(
        f: R.Callable((R.Tensor((3,), "float32"),), R.Tensor((3,), "float32")),
        x: R.Tensor((3,), "float32"),
    ) -> R.Tensor((3,), "float32"):
        y = f(x)
        z = f(y)
        return z

    @R.function
    def double(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
        y = R.add(x, x)
        return y

    @R.function
    def main(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
        cls = Module
        y = cls.apply_twice(cls.double, x)
        return y
