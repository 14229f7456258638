# error: 12:16: contradicts the return annotation tensor<[3, 2], f32>
# A return annotation whose shape contradicts the returned value (TVM 0.25 does not check it).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((3, 2), "float32"):
        y = R.add(x, x)
        return y
# tvm: accepts
