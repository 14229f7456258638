"""`R.nn.conv2d` with NHWC data and an HWIO kernel (`data_layout`, `kernel_layout`, an explicit
`out_layout="NHWC"`), then a transpose to NCHW, a bias add and relu. (127 has an `out_layout`
that differs from the data layout, which TVM 0.25 cannot legalize.)"""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 6, 6, 2), "float32"), w: R.Tensor((3, 3, 2, 4), "float32"), b: R.Tensor((1, 4, 1, 1), "float32")) -> R.Tuple(R.Tensor((1, 4, 4, 4), "float32"), R.Tensor((1, 6, 6, 4), "float32")):
        y = R.nn.conv2d(x, w, data_layout="NHWC", kernel_layout="HWIO", out_layout="NHWC")
        t = R.permute_dims(y, axes=[0, 3, 1, 2])
        z = R.nn.relu(R.add(t, b))
        s = R.nn.conv2d(x, w, padding=[1, 1], data_layout="NHWC", kernel_layout="HWIO")
        return (z, s)
