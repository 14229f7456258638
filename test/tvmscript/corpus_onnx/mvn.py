from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(X: R.Tensor((3, 3, 3, 1), dtype="float32")) -> R.Tensor((3, 3, 3, 1), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 3, 1, 1), dtype="float32") = R.mean(X, axis=[0, 2, 3], keepdims=True)
            lv1: R.Tensor((3, 3, 3, 1), dtype="float32") = R.subtract(X, lv)
            lv2: R.Tensor((3, 3, 3, 1), dtype="float32") = R.power(X, R.const(2.0, "float32"))
            lv3: R.Tensor((1, 3, 1, 1), dtype="float32") = R.mean(lv2, axis=[0, 2, 3], keepdims=True)
            lv4: R.Tensor((1, 3, 1, 1), dtype="float32") = R.power(lv, R.const(2.0, "float32"))
            lv5: R.Tensor((1, 3, 1, 1), dtype="float32") = R.subtract(lv3, lv4)
            lv6: R.Tensor((1, 3, 1, 1), dtype="float32") = R.sqrt(lv5)
            gv: R.Tensor((3, 3, 3, 1), dtype="float32") = R.divide(lv1, lv6)
            R.output(gv)
        return gv
