from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((3, 3), dtype="float32"), indices: R.Tensor((2, 3), dtype="int64"), updates: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((3, 3), dtype="float32") = R.scatter_elements(data, indices, updates, axis=0, reduction="update")
            R.output(gv)
        return gv
