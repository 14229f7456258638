# error: 11:22: R.exp takes at most 1 argument
# A unary operator given two operands.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.exp(x, x)
        return y
# tvm: rejects
