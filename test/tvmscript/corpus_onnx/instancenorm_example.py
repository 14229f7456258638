from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 1, 3), dtype="float32"), s: R.Tensor((2,), dtype="float32"), bias: R.Tensor((2,), dtype="float32")) -> R.Tensor((1, 2, 1, 3), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((1, 2, 1, 1), dtype="float32") = R.mean(x, axis=[2, 3], keepdims=True)
            lv1: R.Tensor((1, 2, 1, 3), dtype="float32") = R.subtract(x, lv)
            lv2: R.Tensor((1, 2, 1, 1), dtype="float32") = R.variance(x, axis=[2, 3], keepdims=True)
            lv3: R.Tensor((1, 2, 1, 1), dtype="float32") = R.add(lv2, R.const(9.9999997473787516e-06, "float32"))
            lv4: R.Tensor((1, 2, 1, 1), dtype="float32") = R.sqrt(lv3)
            lv5: R.Tensor((1, 2, 1, 3), dtype="float32") = R.divide(lv1, lv4)
            lv6: R.Tensor((2, 1, 1), dtype="float32") = R.reshape(s, R.shape([2, 1, 1]))
            lv7: R.Tensor((1, 2, 1, 3), dtype="float32") = R.multiply(lv5, lv6)
            lv8: R.Tensor((2, 1, 1), dtype="float32") = R.reshape(bias, R.shape([2, 1, 1]))
            gv: R.Tensor((1, 2, 1, 3), dtype="float32") = R.add(lv7, lv8)
            R.output(gv)
        return gv
