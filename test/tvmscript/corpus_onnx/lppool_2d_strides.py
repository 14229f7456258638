from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 32, 32), dtype="float32")) -> R.Tensor((1, 3, 10, 10), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 3, 32, 32), dtype="float32") = R.power(x, R.const(2.0, "float32"))
            lv1: R.Tensor((1, 3, 10, 10), dtype="float32") = R.nn.avg_pool2d(lv, pool_size=[5, 5], strides=[3, 3], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=True, layout="NCHW", out_layout="NCHW")
            lv2: R.Tensor((1, 3, 10, 10), dtype="float32") = R.multiply(lv1, R.const(25.0, "float32"))
            gv: R.Tensor((1, 3, 10, 10), dtype="float32") = R.power(lv2, R.const(0.5, "float32"))
            R.output(gv)
        return gv
