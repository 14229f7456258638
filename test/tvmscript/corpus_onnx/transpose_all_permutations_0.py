from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((2, 3, 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            gv: R.Tensor((2, 3, 4), dtype="float32") = R.permute_dims(data, axes=[0, 1, 2])
            R.output(gv)
        return gv
