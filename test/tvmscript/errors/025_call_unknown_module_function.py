# error: 12:13: the module has no Relax function 'missing'
# A call of a module function that the module does not define.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        cls = Module
        y = cls.missing(x)
        return y
# tvm: rejects
