# error: 11:29: expected a StructInfo annotation
# R.match_cast whose second argument is a value, not a StructInfo such as R.Tensor(...).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        z = R.match_cast(x, y)
        return z
# tvm: rejects
