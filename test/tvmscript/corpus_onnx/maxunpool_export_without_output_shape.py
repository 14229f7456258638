from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(xT: R.Tensor((1, 1, 2, 2), dtype="float32"), xI: R.Tensor((1, 1, 2, 2), dtype="int64")) -> R.Tensor((1, 1, 4, 4), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((1, 1, 4, 4), dtype="float32") = R.zeros(R.shape([1, 1, 4, 4]), dtype="float32")
            lv1: R.Tensor((16,), dtype="float32") = R.reshape(lv, R.shape([16]))
            lv2: R.Tensor((4,), dtype="int64") = R.reshape(xI, R.shape([4]))
            lv3: R.Tensor((4,), dtype="float32") = R.reshape(xT, R.shape([4]))
            lv4: R.Tensor((16,), dtype="float32") = R.scatter_elements(lv1, lv2, lv3, axis=0, reduction="update")
            gv: R.Tensor((1, 1, 4, 4), dtype="float32") = R.reshape(lv4, R.shape([1, 1, 4, 4]))
            R.output(gv)
        return gv
