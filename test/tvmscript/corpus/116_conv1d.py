"""`R.nn.conv1d` of NCW data with an OIW weight: defaults, `strides`/`padding`/`dilation` as
ints and lists, `groups=2`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 10), "float32"), w: R.Tensor((6, 4, 3), "float32"), wg: R.Tensor((4, 2, 3), "float32")) -> R.Tuple(R.Tensor((1, 6, 8), "float32"), R.Tensor((1, 6, 5), "float32"), R.Tensor((1, 4, 6), "float32")):
        a = R.nn.conv1d(x, w)
        b = R.nn.conv1d(x, w, strides=2, padding=1)
        c = R.nn.conv1d(x, wg, strides=[1], padding=[1, 1], dilation=[3], groups=2)
        return (a, b, c)
