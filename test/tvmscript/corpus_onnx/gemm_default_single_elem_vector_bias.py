from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((3, 7), dtype="float32"), b: R.Tensor((7, 3), dtype="float32"), c: R.Tensor((1,), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((3, 3), dtype="float32") = R.matmul(a, b, out_dtype="void")
            gv: R.Tensor((3, 3), dtype="float32") = R.add(lv, c)
            R.output(gv)
        return gv
