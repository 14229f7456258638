# error: 11:13: axis 2 is out of range
# A reduction axis beyond the rank of its operand.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2,), "float32"):
        y = R.sum(x, axis=2)
        return y
# tvm: rejects
