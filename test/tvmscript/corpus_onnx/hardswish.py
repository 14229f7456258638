from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((3, 4, 5), dtype="float32") = R.add(x, R.const(3.0, "float32"))
            lv1: R.Tensor((3, 4, 5), dtype="float32") = R.clip(lv, R.prim_value(0), R.prim_value(6))
            lv2: R.Tensor((3, 4, 5), dtype="float32") = R.divide(lv1, R.const(6.0, "float32"))
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.multiply(x, lv2)
            R.output(gv)
        return gv
