from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((2, 3, 4, 5), dtype="float32")) -> R.Tensor((1, 120), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((1, 120), dtype="float32") = R.reshape(a, R.shape([1, 120]))
            R.output(gv)
        return gv
