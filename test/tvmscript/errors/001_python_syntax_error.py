# error: 11:22: '(' was never closed
# Python syntax error: an unclosed parenthesis in a binding.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.add(x, (x
        return y
# tvm: rejects
