# error: 12:9: for loops are not supported in a Relax function
# A Python for loop in a Relax function body.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = x
        for i in range(3):
            y = R.add(y, x)
        return y
# tvm: rejects
