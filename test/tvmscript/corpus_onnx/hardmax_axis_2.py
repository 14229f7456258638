from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((3, 4), dtype="int64") = R.argmax(x, axis=2, keepdims=False)
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.one_hot(lv, R.prim_value(T.float32(1.0)), R.prim_value(T.float32(0.0)), depth=5, axis=2)
            R.output(gv)
        return gv
