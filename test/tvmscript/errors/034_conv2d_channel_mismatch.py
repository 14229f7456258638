# error: 11:13: input channels
# A 2-D convolution whose weight's input channels (2) differ from the data's (3).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 5, 5), "float32"), w: R.Tensor((4, 2, 3, 3), "float32")) -> R.Tensor((1, 4, 3, 3), "float32"):
        y = R.nn.conv2d(x, w)
        return y
# tvm: rejects
