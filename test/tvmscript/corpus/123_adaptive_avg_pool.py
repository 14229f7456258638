"""Adaptive average pooling to a given number of windows: `R.nn.adaptive_avg_pool1d`,
`R.nn.adaptive_avg_pool2d` (uneven windows; global pooling to 1x1 with a positional
`output_size`; no `output_size`, which keeps the spatial size), `R.nn.adaptive_avg_pool3d`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x1: R.Tensor((1, 2, 7), "float32"), x2: R.Tensor((2, 3, 5, 7), "float32"), x3: R.Tensor((1, 1, 4, 4, 4), "float32")) -> R.Tuple(R.Tensor((1, 2, 3), "float32"), R.Tensor((2, 3, 2, 3), "float32"), R.Tensor((2, 3, 1, 1), "float32"), R.Tensor((2, 3, 5, 7), "float32"), R.Tensor((1, 1, 2, 2, 2), "float32")):
        a = R.nn.adaptive_avg_pool1d(x1, output_size=3)
        b = R.nn.adaptive_avg_pool2d(x2, output_size=(2, 3))
        c = R.nn.adaptive_avg_pool2d(x2, 1)
        d = R.nn.adaptive_avg_pool2d(x2)
        e = R.nn.adaptive_avg_pool3d(x3, output_size=[2, 2, 2])
        return (a, b, c, d, e)
