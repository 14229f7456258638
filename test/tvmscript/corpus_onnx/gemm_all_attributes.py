from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((4, 3), dtype="float32"), b: R.Tensor((5, 4), dtype="float32"), c: R.Tensor((1, 5), dtype="float32")) -> R.Tensor((3, 5), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((4, 3), dtype="float32") = R.multiply(a, R.const(0.25, "float32"))
            lv1: R.Tensor((3, 4), dtype="float32") = R.permute_dims(lv, axes=[1, 0])
            lv2: R.Tensor((4, 5), dtype="float32") = R.permute_dims(b, axes=[1, 0])
            lv3: R.Tensor((3, 5), dtype="float32") = R.matmul(lv1, lv2, out_dtype="void")
            lv4: R.Tensor((1, 5), dtype="float32") = R.multiply(c, R.const(0.34999999403953552, "float32"))
            gv: R.Tensor((3, 5), dtype="float32") = R.add(lv3, lv4)
            R.output(gv)
        return gv
