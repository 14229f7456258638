"""Transposed convolutions: `R.nn.conv1d_transpose` (IOW weight, strides, output_padding),
`R.nn.conv2d_transpose` (IOHW, padding), `R.nn.conv3d_transpose` (IODHW)."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x1: R.Tensor((1, 2, 4), "float32"), w1: R.Tensor((2, 3, 3), "float32"), x2: R.Tensor((1, 2, 3, 3), "float32"), w2: R.Tensor((2, 4, 3, 3), "float32"), x3: R.Tensor((1, 2, 2, 2, 2), "float32"), w3: R.Tensor((2, 1, 2, 2, 2), "float32")) -> R.Tuple(R.Tensor((1, 3, 10), "float32"), R.Tensor((1, 4, 3, 3), "float32"), R.Tensor((1, 4, 7, 7), "float32"), R.Tensor((1, 1, 3, 3, 3), "float32")):
        a = R.nn.conv1d_transpose(x1, w1, strides=2, output_padding=1)
        b = R.nn.conv2d_transpose(x2, w2, padding=1)
        c = R.nn.conv2d_transpose(x2, w2, strides=(2, 2), padding=(0, 0), output_padding=(0, 0))
        d = R.nn.conv3d_transpose(x3, w3)
        return (a, b, c, d)
