from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 3, 2), dtype="float32"), y_scale: R.Tensor((3,), dtype="float32"), y_zero_point: R.Tensor((3,), dtype="uint8")) -> R.Tensor((1, 3, 3, 2), dtype="uint8"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((1, 3, 3, 2), dtype="uint8") = R.quantize(x, y_scale, y_zero_point, out_dtype="uint8", axis=1)
            R.output(gv)
        return gv
