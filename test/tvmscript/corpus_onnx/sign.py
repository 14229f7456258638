from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((11,), dtype="float32")) -> R.Tensor((11,), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((11,), dtype="bool") = R.isnan(x)
            lv1: R.Tensor((11,), dtype="float32") = R.sign(x)
            gv: R.Tensor((11,), dtype="float32") = R.where(lv, x, lv1)
            R.output(gv)
        return gv
