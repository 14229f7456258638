from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="uint32"), y: R.Tensor((3, 4, 5), dtype="uint32")) -> R.Tensor((3, 4, 5), dtype="bool"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((3, 4, 5), dtype="bool") = R.equal(x, y)
            R.output(gv)
        return gv
