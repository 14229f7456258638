# error: 10:26: expected a shape: a tuple or list of dimensions
# A tensor annotation whose shape is a bare integer.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(3, "float32")) -> R.Tensor(3, "float32"):
        return x
# tvm: rejects
