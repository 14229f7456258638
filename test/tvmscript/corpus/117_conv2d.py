"""`R.nn.conv2d` of NCHW data: defaults, strides and asymmetric padding, dilation, grouped
(depthwise) convolution, and `out_dtype`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 7, 7), "float32"), w: R.Tensor((4, 3, 3, 3), "float32"), dw: R.Tensor((3, 1, 3, 3), "float32")) -> R.Tuple(R.Tensor((1, 4, 5, 5), "float32"), R.Tensor((1, 4, 4, 3), "float32"), R.Tensor((1, 4, 3, 3), "float32"), R.Tensor((1, 3, 7, 7), "float32")):
        a = R.nn.conv2d(x, w)
        b = R.nn.conv2d(x, w, strides=(2, 2), padding=(1, 0, 2, 0))
        c = R.nn.conv2d(x, w, dilation=2, out_dtype="float32")
        d = R.nn.conv2d(x, dw, padding=1, groups=3)
        return (a, b, c, d)
