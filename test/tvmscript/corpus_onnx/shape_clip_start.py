from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32")) -> R.Shape([3, 4, 5]):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Shape([3, 4, 5]) = R.shape([3, 4, 5])
            R.output(gv)
        return gv
