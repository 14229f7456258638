from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((20, 10, 5), dtype="float32"), starts: R.Tensor((3,), dtype="int64"), ends: R.Tensor((3,), dtype="int64")) -> R.Tensor(dtype="float32", ndim=3):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((3,), dtype="int64") = R.arange(R.prim_value(0), R.prim_value(3), R.prim_value(1), dtype="int64")
            lv1: R.Tensor((3,), dtype="bool") = R.less(lv, R.const(0, "int64"))
            lv2: R.Tensor((3,), dtype="int64") = R.add(lv, R.const(3, "int64"))
            lv3: R.Shape([20, 10, 5]) = R.shape_of(x)
            lv4: R.Tensor((3,), dtype="int64") = R.where(lv1, lv2, lv)
            lv5: R.Tensor((3,), dtype="int64") = R.shape_to_tensor(lv3)
            lv6: R.Tensor((3,), dtype="int64") = R.scatter_elements(metadata["relax.expr.Constant"][0], lv4, starts, axis=0, reduction="update")
            lv7: R.Tensor((3,), dtype="int64") = R.scatter_elements(lv5, lv4, ends, axis=0, reduction="update")
            lv8: R.Tensor((3,), dtype="int64") = R.scatter_elements(metadata["relax.expr.Constant"][1], lv4, metadata["relax.expr.Constant"][2], axis=0, reduction="update")
            gv: R.Tensor(dtype="float32", ndim=3) = R.dynamic_strided_slice(x, lv6, lv7, lv8)
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
