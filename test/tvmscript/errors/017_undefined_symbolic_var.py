# error: 11:22: 'k' is not defined
# A binding annotation using a symbolic variable that nothing defines.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        y: R.Tensor((k, 4), "float32") = R.exp(x)
        return y
# tvm: rejects
