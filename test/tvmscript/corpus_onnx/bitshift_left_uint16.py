from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="uint16"), y: R.Tensor((3,), dtype="uint16")) -> R.Tensor((3,), dtype="uint16"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((3,), dtype="uint16") = R.left_shift(x, y)
            R.output(gv)
        return gv
