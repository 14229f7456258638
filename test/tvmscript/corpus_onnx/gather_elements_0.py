from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((2, 2), dtype="float32"), indices: R.Tensor((2, 2), dtype="int64")) -> R.Tensor((2, 2), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((2, 2), dtype="float32") = R.gather_elements(data, indices, axis=1)
            R.output(gv)
        return gv
