from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((3, 2), dtype="float32"), condition: R.Tensor((3,), dtype="bool")) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"num_input": 2})
        num_nonzero = T.int64()
        with R.dataflow():
            lv: R.Tensor((1, num_nonzero), dtype="int64") = R.match_cast(R.nonzero(condition), R.Tensor((1, num_nonzero), dtype="int64"))
            lv1: R.Tensor((num_nonzero,), dtype="int64") = R.reshape(lv, R.shape([num_nonzero]))
            gv: R.Tensor((num_nonzero, 2), dtype="float32") = R.take(input, lv1, axis=0, mode="fast")
            R.output(gv)
        return gv
