from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(X: R.Tensor((1, 1, 3, 3), dtype="float32"), W: R.Tensor((1, 2, 3, 3), dtype="float32")) -> R.Tensor((1, 2, 7, 3), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((1, 2, 7, 3), dtype="float32") = R.nn.conv2d_transpose(X, W, strides=[3, 2], padding=[1, 2, 1, 2], output_padding=[0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype="void")
            R.output(gv)
        return gv
