# error: 12:17: cannot be broadcast together
# R.add of shapes (2, 3) and (4,): the last dimensions 3 and 4 differ.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            z = R.add(x, y)
            R.output(z)
        return z
# tvm: rejects
