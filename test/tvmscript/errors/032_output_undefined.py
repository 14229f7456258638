# error: 13:25: 'z' is not defined
# R.output listing a name that the block never binds.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            y = R.exp(x)
            R.output(y, z)
        return y
# tvm: rejects
