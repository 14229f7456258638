from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((3, 1), dtype="float32"), new_shape: R.Tensor((2,), dtype="int64")) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"num_input": 2})
        x_0 = T.int64()
        x_1 = T.int64()
        with R.dataflow():
            lv: R.Shape(ndim=2) = R.call_packed("vm.builtin.tensor_to_shape", new_shape, sinfo_args=(R.Shape(ndim=2),))
            lv1: R.Shape([x_0, x_1]) = R.match_cast(lv, R.Shape([x_0, x_1]))
            gv: R.Tensor((x_0, x_1), dtype="float32") = R.broadcast_to(data, R.shape([x_0, x_1]))
            R.output(gv)
        return gv
