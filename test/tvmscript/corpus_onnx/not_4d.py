from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5, 6), dtype="bool")) -> R.Tensor((3, 4, 5, 6), dtype="bool"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((3, 4, 5, 6), dtype="bool") = R.logical_not(x)
            R.output(gv)
        return gv
