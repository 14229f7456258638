from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5,), dtype="float32")) -> R.Tensor((5,), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((5,), dtype="bool") = R.greater(x, R.const(1.5, "float32"))
            lv1: R.Tensor((5,), dtype="float32") = R.subtract(x, R.const(1.5, "float32"))
            lv2: R.Tensor((5,), dtype="float32") = R.zeros_like(x, dtype="void")
            lv3: R.Tensor((5,), dtype="float32") = R.where(lv, lv1, lv2)
            lv4: R.Tensor((), dtype="float32") = R.negative(R.const(1.5, "float32"))
            lv5: R.Tensor((5,), dtype="bool") = R.less(x, lv4)
            lv6: R.Tensor((5,), dtype="float32") = R.add(x, R.const(1.5, "float32"))
            lv7: R.Tensor((5,), dtype="float32") = R.where(lv5, lv6, lv2)
            gv: R.Tensor((5,), dtype="float32") = R.add(lv3, lv7)
            R.output(gv)
        return gv
