"""Convolutions in the form TVM prints, every attribute a keyword: `R.nn.conv2d(x, w,
strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW",
kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")` and `R.nn.conv1d_transpose`."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 2, 5, 5), dtype="float32"), w: R.Tensor((3, 2, 3, 3), dtype="float32"), s: R.Tensor(("n", 2, 6), dtype="float32"), k: R.Tensor((2, 2, 2), dtype="float32")) -> R.Tuple(R.Tensor(("n", 3, 5, 5), dtype="float32"), R.Tensor(("n", 2, 12), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 3, 5, 5), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1: R.Tensor((n, 3, 5, 5), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((n, 2, 12), dtype="float32") = R.nn.conv1d_transpose(s, k, strides=[2], padding=[0, 0], output_padding=[0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="IOW", out_layout="NCW", out_dtype="void")
            gv = (lv1, lv2)
            R.output(gv)
        return gv
