# error: 12:13: index 2 is out of range
# Indexing a pair with 2.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        t = (x, x)
        y = t[2]
        return y
# tvm: rejects
