from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((3, 4, 5), dtype="bool") = R.greater(x, R.const(2.0, "float32"))
            lv1: R.Tensor((3, 4, 5), dtype="float32") = R.astype(lv, dtype="float32")
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.multiply(lv1, x)
            R.output(gv)
        return gv
