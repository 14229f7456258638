# error: 11:16: contradicts the return annotation tensor<[2, 3], i32>
# A return annotation whose data type contradicts the returned parameter.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "int32"):
        return x
# tvm: accepts
