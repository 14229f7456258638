# error: 13:13: R.func_attr is supported in module functions only
# A closure's attributes have no place in the dialect's relax.lambda (TVM keeps them).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        @R.function
        def inner(y: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
            R.func_attr({"note": "inner"})
            return y

        z = inner(x)
        return z
# tvm: accepts
