# error: 11:12: contradicts the inferred type tensor<[2, 3], f32>
# A binding annotation whose data type contradicts the inferred one.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        y: R.Tensor((2, 3), "int32") = R.exp(x)
        return x
# tvm: rejects
