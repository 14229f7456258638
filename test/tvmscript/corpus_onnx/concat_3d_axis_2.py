from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(value0: R.Tensor((2, 2, 2), dtype="float32"), value1: R.Tensor((2, 2, 2), dtype="float32")) -> R.Tensor((2, 2, 4), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((2, 2, 4), dtype="float32") = R.concat((value0, value1), axis=2)
            R.output(gv)
        return gv
