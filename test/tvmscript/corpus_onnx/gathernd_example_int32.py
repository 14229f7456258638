from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((2, 2), dtype="int32"), indices: R.Tensor((2, 2), dtype="int64")) -> R.Tensor((2,), dtype="int32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((2,), dtype="int32") = R.gather_nd(data, indices, batch_dims=0)
            R.output(gv)
        return gv
