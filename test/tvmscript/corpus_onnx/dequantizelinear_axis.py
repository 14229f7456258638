from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 3, 2), dtype="uint8"), x_scale: R.Tensor((3,), dtype="float32"), x_zero_point: R.Tensor((3,), dtype="uint8")) -> R.Tensor((1, 3, 3, 2), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((1, 3, 3, 2), dtype="float32") = R.dequantize(x, x_scale, x_zero_point, out_dtype="float32", axis=1)
            R.output(gv)
        return gv
