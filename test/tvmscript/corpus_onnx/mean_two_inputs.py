from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data_0: R.Tensor((3,), dtype="float32"), data_1: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((3,), dtype="float32") = R.broadcast_to(data_0, R.shape([3]))
            lv1: R.Tensor((3,), dtype="float32") = R.broadcast_to(data_1, R.shape([3]))
            lv2: R.Tensor((2, 3), dtype="float32") = R.stack((lv, lv1), axis=0)
            gv: R.Tensor((3,), dtype="float32") = R.mean(lv2, axis=[0], keepdims=False)
            R.output(gv)
        return gv
