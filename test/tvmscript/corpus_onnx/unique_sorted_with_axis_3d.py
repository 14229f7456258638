from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(X: R.Tensor((2, 4, 2), dtype="float32")) -> R.Tuple(R.Tensor(dtype="float32", ndim=3), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)):
        R.func_attr({"num_input": 1})
        unique_numbers = T.int64()
        inverse_numbers = T.int64()
        with R.dataflow():
            lv: R.Tuple(R.Tensor(dtype="float32", ndim=3), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)) = R.unique(X, R.prim_value(1), R.prim_value(1), R.prim_value(1), R.prim_value(1), R.prim_value(1))
            lv1: R.Tensor((2, unique_numbers, 2), dtype="float32") = R.match_cast(lv[0], R.Tensor((2, unique_numbers, 2), dtype="float32"))
            lv2: R.Tensor((unique_numbers,), dtype="int64") = R.match_cast(lv[1], R.Tensor((unique_numbers,), dtype="int64"))
            lv3: R.Tensor((inverse_numbers,), dtype="int64") = R.match_cast(lv[2], R.Tensor((inverse_numbers,), dtype="int64"))
            lv4: R.Tensor((unique_numbers,), dtype="int64") = R.match_cast(lv[3], R.Tensor((unique_numbers,), dtype="int64"))
            gv: R.Tuple(R.Tensor((2, unique_numbers, 2), dtype="float32"), R.Tensor((unique_numbers,), dtype="int64"), R.Tensor((inverse_numbers,), dtype="int64"), R.Tensor((unique_numbers,), dtype="int64")) = lv1, lv2, lv3, lv4
            R.output(gv)
        return gv
