from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(X: R.Tensor((2, 3, 5), dtype="float32"), W: R.Tensor((5,), dtype="float32")) -> R.Tensor((2, 3, 5), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((2, 3, 5), dtype="float32") = R.nn.rms_norm(X, W, axes=[2], epsilon=0.10000000149011612)
            R.output(gv)
        return gv
