from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16,), dtype="float32"), y_scale: R.Tensor((), dtype="float32"), y_zero_point: R.Tensor((), dtype="int16")) -> R.Tensor((16,), dtype="int16"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            gv: R.Tensor((16,), dtype="int16") = R.quantize(x, y_scale, y_zero_point, out_dtype="int16", axis=0)
            R.output(gv)
        return gv
