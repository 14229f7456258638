# error: 11:13: R.add needs argument 'x2'
# A binary operator given one operand.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.add(x)
        return y
# tvm: rejects
