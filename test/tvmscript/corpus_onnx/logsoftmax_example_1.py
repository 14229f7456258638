from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3), dtype="float32")) -> R.Tensor((1, 3), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((1, 3), dtype="float32") = R.nn.log_softmax(x, axis=-1)
            R.output(gv)
        return gv
