from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((3, 2, 2), dtype="float32")) -> R.Tensor((1, 1, 1), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((3, 2, 2), dtype="bool") = R.isnan(data)
            lv1: R.Tensor((3, 2, 2), dtype="float32") = R.astype(lv, dtype="float32")
            lv2: R.Tensor((1, 1, 1), dtype="float32") = R.sum(lv1, axis=None, keepdims=True)
            lv3: R.Tensor((1, 1, 1), dtype="bool") = R.greater(lv2, R.const(0.0, "float32"))
            lv4: R.Tensor((1, 1, 1), dtype="float32") = R.min(data, axis=None, keepdims=True)
            lv5: R.Tensor((1, 1, 1), dtype="float32") = R.full_like(lv4, R.const("nan", "float32"), dtype="void")
            gv: R.Tensor((1, 1, 1), dtype="float32") = R.where(lv3, lv5, lv4)
            R.output(gv)
        return gv
