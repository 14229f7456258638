# error: 12:13: a dataflow block cannot contain another dataflow block
# A dataflow block opened inside another one.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            with R.dataflow():
                y = R.exp(x)
                R.output(y)
            R.output(y)
        return y
# tvm: rejects
