from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(condition: R.Tensor((2, 2), dtype="bool"), x: R.Tensor((2, 2), dtype="float32"), y: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((2, 2), dtype="float32") = R.where(condition, x, y)
            R.output(gv)
        return gv
