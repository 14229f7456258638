# error: 11:13: unknown Relax operator 'R.foo'
# An operator that does not exist.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y = R.foo(x)
        return y
# tvm: rejects
