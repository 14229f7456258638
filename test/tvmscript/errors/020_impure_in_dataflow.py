# error: 12:13: impure relax.print cannot appear in a dataflow block
# An impure operator (R.print) in a dataflow block of an impure function.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            R.print(x, format="x = {}")
            y = R.exp(x)
            R.output(y)
        return y
# tvm: rejects
