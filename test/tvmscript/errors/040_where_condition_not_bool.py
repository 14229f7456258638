# error: 11:13: the condition has data type f32, expected bool
# R.where with a float condition.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((2,), "float32"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = R.where(c, x, x)
        return y
# tvm: rejects
