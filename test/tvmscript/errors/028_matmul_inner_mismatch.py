# error: 11:13: inner dimensions
# A matrix product of (2, 3) and (4, 5).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((2, 3), "float32"), b: R.Tensor((4, 5), "float32")) -> R.Tensor((2, 5), "float32"):
        c = R.matmul(a, b)
        return c
# tvm: rejects
