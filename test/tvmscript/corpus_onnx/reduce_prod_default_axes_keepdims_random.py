from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((3, 2, 2), dtype="float32")) -> R.Tensor((1, 1, 1), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((1, 1, 1), dtype="float32") = R.prod(data, axis=None, keepdims=True)
            R.output(gv)
        return gv
