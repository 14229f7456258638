from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32"), min: R.Tensor((), dtype="float32"), max: R.Tensor((), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((3, 4, 5), dtype="bool") = R.less(x, min)
            lv1: R.Tensor((3, 4, 5), dtype="float32") = R.where(lv, min, x)
            lv2: R.Tensor((3, 4, 5), dtype="bool") = R.less(max, lv1)
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.where(lv2, max, lv1)
            R.output(gv)
        return gv
