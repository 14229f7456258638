# error: 10:5: uses symbolic variable k, which is neither bound by the parameters nor in scope
# A return annotation with a symbolic variable that no parameter's annotation defines.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("k", 4), "float32"):
        return x
# tvm: rejects
