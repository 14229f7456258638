# error: 11:13: expected a float data type
# A float-only operator applied to an integer tensor.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(i: R.Tensor((4,), "int32")) -> R.Tensor((4,), "int32"):
        y = R.sqrt(i)
        return y
# tvm: rejects
