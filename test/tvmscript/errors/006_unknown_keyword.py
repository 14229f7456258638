# error: 11:22: R.sum has no argument 'axes'
# A misspelt keyword: R.sum takes `axis`, not `axes`.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2,), "float32"):
        y = R.sum(x, axes=[1])
        return y
# tvm: rejects
