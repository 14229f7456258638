# error: 10:34: invalid data type: float data type cannot have 33 bits
# A parameter annotation with a misspelt data type (TVM 0.25 accepts "float33").
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float33")) -> R.Tensor((2, 3), "float33"):
        return x
# tvm: accepts
