from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((3, 4), dtype="float32"), b: R.Tensor((4, 3), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((3, 3), dtype="float32") = R.matmul(a, b, out_dtype="void")
            R.output(gv)
        return gv
