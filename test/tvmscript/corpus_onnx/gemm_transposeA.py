from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((6, 3), dtype="float32"), b: R.Tensor((6, 4), dtype="float32"), c: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((3, 6), dtype="float32") = R.permute_dims(a, axes=[1, 0])
            lv1: R.Tensor((3, 4), dtype="float32") = R.matmul(lv, b, out_dtype="void")
            gv: R.Tensor((3, 4), dtype="float32") = R.add(lv1, c)
            R.output(gv)
        return gv
