from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.divide(R.const(1.0, "float32"), x)
            R.output(gv)
        return gv
