# error: 10:14: parameter 'x' needs a StructInfo annotation
# A function parameter without an annotation.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x) -> R.Tensor((2, 3), "float32"):
        return x
# tvm: rejects
