from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((3, 4), dtype="float16"), like: R.Tensor(("v",), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        v = T.int64(is_size_var=True)
        R.func_attr({"num_input": 2})
        with R.dataflow():
            gv: R.Tensor((3, 4), dtype="float32") = R.astype(input, dtype="float32")
            R.output(gv)
        return gv
