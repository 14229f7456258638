from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((6,), dtype="float16")) -> R.Tensor((6,), dtype="bool"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((6,), dtype="bool") = R.isnan(x)
            R.output(gv)
        return gv
