from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((3, 4, 5), dtype="float32") = R.multiply(R.const(0.5, "float32"), x)
            lv1: R.Tensor((3, 4, 5), dtype="float32") = R.add(lv, R.const(0.60000002384185791, "float32"))
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.clip(lv1, R.prim_value(0), R.prim_value(1))
            R.output(gv)
        return gv
