from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((3, 4, 5), dtype="bool") = R.isnan(x)
            lv1: R.Tensor((3, 4, 5), dtype="float32") = R.astype(lv, dtype="float32")
            lv2: R.Tensor((3, 4, 1), dtype="float32") = R.sum(lv1, axis=[-1], keepdims=True)
            lv3: R.Tensor((3, 4, 1), dtype="bool") = R.greater(lv2, R.const(0.0, "float32"))
            lv4: R.Tensor((3, 4, 1), dtype="float32") = R.max(x, axis=[-1], keepdims=True)
            lv5: R.Tensor((3, 4, 1), dtype="float32") = R.full_like(lv4, R.const("nan", "float32"), dtype="void")
            lv6: R.Tensor((3, 4, 1), dtype="float32") = R.where(lv3, lv5, lv4)
            lv7: R.Tensor((3, 4, 5), dtype="float32") = R.subtract(x, lv6)
            lv8: R.Tensor((3, 4, 5), dtype="float32") = R.exp(lv7)
            lv9: R.Tensor((3, 4, 1), dtype="float32") = R.sum(lv8, axis=[-1], keepdims=True)
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.divide(lv8, lv9)
            R.output(gv)
        return gv
