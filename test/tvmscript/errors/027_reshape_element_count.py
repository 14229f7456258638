# error: 11:13: cannot reshape
# A reshape whose target does not keep the element count.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((4,), "float32"):
        y = R.reshape(x, (4,))
        return y
# tvm: rejects
