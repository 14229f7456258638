"""`R.layout_transform` by index maps: a split that pads (with `pad_value` and with the
default 0), NCHW to NCHW4c, a transposition and a fusion of two axes with `T.floormod`, on
float and integer data."""
# ruff: noqa
# run: main n=6
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), "float32"), y: R.Tensor((1, 8, 2, 3), "float32"), z: R.Tensor((4, 6), "int32")):
        n = T.int64()
        a = R.layout_transform(x, index_map=lambda i, j: (i // 4, j, i % 4), pad_value=1.5)
        b = R.layout_transform(x, index_map=T.index_map(lambda i, j: (i // 4, j, i % 4)))
        c = R.layout_transform(y, index_map=lambda n, c, h, w: (n, c // 4, h, w, c % 4))
        d = R.layout_transform(y, index_map=lambda n, c, h, w: (n, h, w, c), pad_value=None, axis_separators=[], input_axis_separators=[])
        e = R.layout_transform(z, index_map=lambda i, j: (j * 4 + T.floormod(i, 4),))
        g = R.layout_transform(z, index_map=lambda i, j: (i // 3, j, i % 3), pad_value=7)
        return (a, b, c, d, e, g)
