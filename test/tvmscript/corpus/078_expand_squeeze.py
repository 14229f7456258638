"""`R.expand_dims` with one axis (an int), several axes (a list, including negative ones);
`R.squeeze` of listed axes and of every length-1 axis (no `axis`)."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4), "float32"), y: R.Tensor((1, 3, 1, 2), "float32")) -> R.Tuple(R.Tensor((3, 1, 4), "float32"), R.Tensor((1, 3, 4, 1), "float32"), R.Tensor((3, 1, 2), "float32"), R.Tensor((3, 2), "float32"), R.Tensor((3, 4), "float32")):
        a = R.expand_dims(x, 1)
        b = R.expand_dims(x, axis=[0, -1])
        c = R.squeeze(y, axis=[0])
        d = R.squeeze(y)
        e = R.squeeze(b, axis=[0, 3])
        return (a, b, c, d, e)
