from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(data: R.Tensor((5, 4, 3, 2), dtype="float32"), indices: R.Tensor((3,), dtype="int64")) -> R.Tensor((3, 4, 3, 2), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Shape([5, 4, 3, 2]) = R.shape_of(data)
            lv1: R.Tensor((4,), dtype="int64") = R.shape_to_tensor(lv)
            lv2: R.Tensor((3,), dtype="bool") = R.less(indices, R.const(0, "int64"))
            lv3: R.Tensor((), dtype="int64") = R.take(lv1, R.const(0, "int64"), axis=0, mode="wrap")
            lv4: R.Tensor((3,), dtype="int64") = R.add(indices, lv3)
            lv5: R.Tensor((3,), dtype="int64") = R.where(lv2, lv4, indices)
            gv: R.Tensor((3, 4, 3, 2), dtype="float32") = R.take(data, lv5, axis=0, mode="fast")
            R.output(gv)
        return gv
