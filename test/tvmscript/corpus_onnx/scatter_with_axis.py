from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((1, 5), dtype="float32"), indices: R.Tensor((1, 2), dtype="int64"), updates: R.Tensor((1, 2), dtype="float32")) -> R.Tensor((1, 5), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((1, 5), dtype="float32") = R.scatter_elements(data, indices, updates, axis=1, reduction="update")
            R.output(gv)
        return gv
