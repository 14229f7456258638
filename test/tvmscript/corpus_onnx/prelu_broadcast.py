from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32"), slope: R.Tensor((5,), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((5,), dtype="float32") = R.reshape(slope, R.shape([5]))
            gv: R.Tensor((3, 4, 5), dtype="float32") = R.nn.prelu(x, lv, axis=2)
            R.output(gv)
        return gv
