# error: 11:25: argument 'axis' given twice
# An attribute given both positionally and as a keyword.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2,), "float32"):
        y = R.sum(x, 1, axis=1)
        return y
# tvm: rejects
