from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 32), dtype="float32")) -> R.Tensor((1, 3, 31), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((1, 3, 31), dtype="float32") = R.nn.avg_pool1d(x, pool_size=[2], strides=[1], dilation=[1], padding=[0, 0], ceil_mode=False, count_include_pad=False, layout="NCW", out_layout="NCW")
            R.output(gv)
        return gv
