from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 1, 5, 5), dtype="float32"), W: R.Tensor((1, 1, 3, 3), dtype="float32")) -> R.Tensor((1, 1, 5, 5), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((1, 1, 5, 5), dtype="float32") = R.nn.conv2d(x, W, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            R.output(gv)
        return gv
