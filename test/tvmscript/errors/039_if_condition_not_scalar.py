# error: 11:12: expected a boolean scalar
# An if on a 1-d float tensor (TVM 0.25 accepts it).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        if x:
            y = R.exp(x)
        else:
            y = R.negative(x)
        return y
# tvm: accepts
