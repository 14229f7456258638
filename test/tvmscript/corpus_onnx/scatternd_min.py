from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((4, 4, 4), dtype="float32"), indices: R.Tensor((2, 1), dtype="int64"), updates: R.Tensor((2, 4, 4), dtype="float32")) -> R.Tensor((4, 4, 4), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((4, 4, 4), dtype="float32") = R.scatter_nd(data, indices, updates, reduction="min")
            R.output(gv)
        return gv
