from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((2, 1, 4), dtype="int64"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((2, 1, 4), dtype="int64") = R.argmin(data, axis=1, keepdims=True)
            R.output(gv)
        return gv
