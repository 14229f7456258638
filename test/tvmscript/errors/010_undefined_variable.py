# error: 11:22: 'z' is not defined
# A binding that uses a name never bound.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.add(x, z)
        return y
# tvm: rejects
