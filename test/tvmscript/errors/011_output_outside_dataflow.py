# error: 12:9: R.output outside a dataflow block
# R.output in the function body, where there is no dataflow block to leave.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.exp(x)
        R.output(y)
        return y
# tvm: rejects
