from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(condition: R.Tensor((2, 2), dtype="bool")) -> R.Tensor(dtype="int64", ndim=2):
        R.func_attr({"num_input": 1})
        nonzero_numbers = T.int64()
        with R.dataflow():
            lv: R.Tensor((2, nonzero_numbers), dtype="int64") = R.match_cast(R.nonzero(condition), R.Tensor((2, nonzero_numbers), dtype="int64"))
            gv: R.Tensor((2, nonzero_numbers), dtype="int64") = lv
            R.output(gv)
        return gv
