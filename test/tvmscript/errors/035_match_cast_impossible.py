# error: 11:13: can never match
# R.match_cast of a tensor to a shape, which can never succeed.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Shape([2, 3]):
        s = R.match_cast(x, R.Shape([2, 3]))
        return s
# tvm: rejects
