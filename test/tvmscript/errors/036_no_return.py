# error: 10:5: the function body must end with a return statement
# A function body without a return statement.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.exp(x)
# tvm: rejects
