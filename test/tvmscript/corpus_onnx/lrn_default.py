from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5, 5, 5, 5), dtype="float32")) -> R.Tensor((5, 5, 5, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((5, 5, 5, 5), dtype="float32") = R.multiply(x, x)
            lv1: R.Tensor((5, 1, 5, 5, 5), dtype="float32") = R.expand_dims(lv, axis=[1])
            lv2: R.Tensor((5, 1, 5, 5, 5), dtype="float32") = R.nn.avg_pool3d(lv1, pool_size=[3, 1, 1], strides=[1, 1, 1], dilation=[1, 1, 1], padding=[1, 0, 0, 1, 0, 0], ceil_mode=False, count_include_pad=True, layout="NCDHW", out_layout="NCDHW")
            lv3: R.Tensor((5, 5, 5, 5), dtype="float32") = R.squeeze(lv2, axis=[1])
            lv4: R.Tensor((5, 5, 5, 5), dtype="float32") = R.multiply(lv3, R.const(9.9999997473787516e-05, "float32"))
            lv5: R.Tensor((5, 5, 5, 5), dtype="float32") = R.add(lv4, R.const(1.0, "float32"))
            lv6: R.Tensor((5, 5, 5, 5), dtype="float32") = R.power(lv5, R.const(0.75, "float32"))
            gv: R.Tensor((5, 5, 5, 5), dtype="float32") = R.divide(x, lv6)
            R.output(gv)
        return gv
