from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((2, 1, 4), dtype="int64"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((2, 3, 4), dtype="float32") = R.flip(data, axis=1)
            lv1: R.Tensor((2, 1, 4), dtype="int64") = R.argmin(lv, axis=1, keepdims=True)
            gv: R.Tensor((2, 1, 4), dtype="int64") = R.subtract(R.const(2, "int64"), lv1)
            R.output(gv)
        return gv
