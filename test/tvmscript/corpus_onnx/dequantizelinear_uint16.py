from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="uint16"), x_scale: R.Tensor((), dtype="float32"), x_zero_point: R.Tensor((), dtype="uint16")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((4,), dtype="float32") = R.dequantize(x, x_scale, x_zero_point, out_dtype="float32", axis=0)
            R.output(gv)
        return gv
