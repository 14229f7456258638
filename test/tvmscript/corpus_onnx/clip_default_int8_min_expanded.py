from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="int8"), min: R.Tensor((), dtype="int8")) -> R.Tensor((3, 4, 5), dtype="int8"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((3, 4, 5), dtype="bool") = R.less(x, min)
            gv: R.Tensor((3, 4, 5), dtype="int8") = R.where(lv, min, x)
            R.output(gv)
        return gv
