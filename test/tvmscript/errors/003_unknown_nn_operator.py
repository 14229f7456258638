# error: 12:17: unknown Relax operator 'R.nn.conv4d'
# An operator of an existing namespace (R.nn) that does not exist, inside a dataflow block.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), "float32"), w: R.Tensor((2, 2, 1, 1), "float32")) -> R.Tensor((1, 2, 4, 4), "float32"):
        with R.dataflow():
            y = R.nn.conv4d(x, w)
            R.output(y)
        return y
# tvm: rejects
