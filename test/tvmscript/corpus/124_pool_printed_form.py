"""Pooling in the form TVM prints: every attribute as a keyword
(`pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0], dilation=[1, 1], ceil_mode=False,
count_include_pad=False, layout="NCHW", out_layout="NCHW"`)."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, 8, 8), dtype="float32")) -> R.Tuple(R.Tensor(("n", 3, 4, 4), dtype="float32"), R.Tensor(("n", 3, 1, 1), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 3, 4, 4), dtype="float32") = R.nn.max_pool2d(x, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv1: R.Tensor((n, 3, 4, 4), dtype="float32") = R.nn.avg_pool2d(x, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv2: R.Tensor((n, 3, 4, 4), dtype="float32") = R.subtract(lv, lv1)
            lv3: R.Tensor((n, 3, 1, 1), dtype="float32") = R.nn.adaptive_avg_pool2d(lv2, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
            gv = (lv2, lv3)
            R.output(gv)
        return gv
