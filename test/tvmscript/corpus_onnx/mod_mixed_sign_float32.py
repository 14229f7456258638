from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((6,), dtype="float32"), y: R.Tensor((6,), dtype="float32")) -> R.Tensor((6,), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((6,), dtype="float32") = R.mod(x, y)
            R.output(gv)
        return gv
