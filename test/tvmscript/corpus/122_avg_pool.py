"""Average pooling: `R.nn.avg_pool1d`, `R.nn.avg_pool2d` with padding counted
(`count_include_pad=True`) and not, `R.nn.avg_pool3d` with `ceil_mode`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x1: R.Tensor((1, 2, 8), "float32"), x2: R.Tensor((1, 2, 5, 5), "float32"), x3: R.Tensor((1, 1, 3, 5, 5), "float32")) -> R.Tuple(R.Tensor((1, 2, 4), "float32"), R.Tensor((1, 2, 3, 3), "float32"), R.Tensor((1, 2, 3, 3), "float32"), R.Tensor((1, 1, 2, 3, 3), "float32")):
        a = R.nn.avg_pool1d(x1, pool_size=2, strides=2)
        b = R.nn.avg_pool2d(x2, pool_size=3, strides=2, padding=1, count_include_pad=True)
        c = R.nn.avg_pool2d(x2, pool_size=(3, 3), strides=(2, 2), padding=(1, 1), count_include_pad=False)
        d = R.nn.avg_pool3d(x3, pool_size=2, strides=2, ceil_mode=True)
        return (a, b, c, d)
