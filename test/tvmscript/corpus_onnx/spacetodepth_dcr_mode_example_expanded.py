from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 6), dtype="float32")) -> R.Tensor((1, 8, 2, 3), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 2, 2, 2, 3, 2), dtype="float32") = R.reshape(x, R.shape([1, 2, 2, 2, 3, 2]))
            lv1: R.Tensor((1, 2, 2, 2, 2, 3), dtype="float32") = R.permute_dims(lv, axes=[0, 3, 5, 1, 2, 4])
            gv: R.Tensor((1, 8, 2, 3), dtype="float32") = R.reshape(lv1, R.shape([1, 8, 2, 3]))
            R.output(gv)
        return gv
