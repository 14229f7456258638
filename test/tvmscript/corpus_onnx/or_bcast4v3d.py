from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5, 6), dtype="bool"), y: R.Tensor((4, 5, 6), dtype="bool")) -> R.Tensor((3, 4, 5, 6), dtype="bool"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((3, 4, 5, 6), dtype="bool") = R.logical_or(x, y)
            R.output(gv)
        return gv
