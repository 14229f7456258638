"""A nested function (closure) capturing a variable of the enclosing function and a symbolic
dimension, called twice from the body."""

# ruff: noqa
# run: main n=5
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32"), bias: R.Tensor(("n",), "float32")) -> R.Tensor(
        ("n",), "float32"
    ):
        n = T.int64()
        scale = R.multiply(bias, R.const(0.5, "float32"))

        @R.function
        def shift(v: R.Tensor((n,), "float32")) -> R.Tensor((n,), "float32"):
            w = R.add(v, scale)
            return w

        a = shift(x)
        b = shift(a)
        return b
