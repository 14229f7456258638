"""Convolutions whose result layout differs from the data layout: `R.nn.conv2d` from NHWC data
to an NCHW result (`out_layout="NCHW"`) and `R.nn.conv1d` from NWC to NCW, with `out_dtype`.
No run spec: TVM 0.25 does not legalize a convolution whose `out_layout` differs from its
`data_layout`."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 6, 6, 2), "float32"), w: R.Tensor((3, 3, 2, 4), "float32"), s: R.Tensor((1, 8, 3), "float32"), k: R.Tensor((5, 3, 2), "float32")) -> R.Tuple(R.Tensor((1, 4, 4, 4), "float32"), R.Tensor((1, 5, 7), "float32")):
        y = R.nn.conv2d(x, w, data_layout="NHWC", kernel_layout="HWIO", out_layout="NCHW")
        z = R.nn.conv1d(s, k, data_layout="NWC", kernel_layout="OIW", out_layout="NCW", out_dtype="float32")
        return (y, z)
