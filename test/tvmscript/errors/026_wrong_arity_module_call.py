# error: 17:13: expects 1 argument
# A call of a module function with more arguments than it has parameters.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def helper(a: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        b = R.exp(a)
        return b

    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        cls = Module
        y = cls.helper(x, x)
        return y
# tvm: rejects
