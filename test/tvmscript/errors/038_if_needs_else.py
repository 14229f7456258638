# error: 12:9: an if needs an else branch in Relax
# An if without else.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = x
        if c:
            y = R.exp(x)
        return y
# tvm: rejects
