"""Maximum pooling: `R.nn.max_pool1d`, `R.nn.max_pool2d` (strides, padding, dilation,
`ceil_mode=True`), `R.nn.max_pool3d`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x1: R.Tensor((1, 2, 9), "float32"), x2: R.Tensor((1, 2, 6, 6), "float32"), x3: R.Tensor((1, 1, 4, 4, 4), "float32")) -> R.Tuple(R.Tensor((1, 2, 4), "float32"), R.Tensor((1, 2, 3, 3), "float32"), R.Tensor((1, 2, 4, 4), "float32"), R.Tensor((1, 1, 2, 2, 2), "float32")):
        a = R.nn.max_pool1d(x1, pool_size=3, strides=2)
        b = R.nn.max_pool2d(x2, pool_size=(2, 2), strides=(2, 2))
        c = R.nn.max_pool2d(x2, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], ceil_mode=True)
        d = R.nn.max_pool3d(x3, pool_size=2, strides=2)
        return (a, b, c, d)
