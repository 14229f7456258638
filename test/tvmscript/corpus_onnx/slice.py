from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((20, 10, 5), dtype="float32"), starts: R.Tensor((2,), dtype="int64"), ends: R.Tensor((2,), dtype="int64"), axes: R.Tensor((2,), dtype="int64"), steps: R.Tensor((2,), dtype="int64")) -> R.Tensor(dtype="float32", ndim=3):
        R.func_attr({"num_input": 5})
        with R.dataflow():
            lv: R.Tensor((2,), dtype="bool") = R.less(axes, R.const(0, "int64"))
            lv1: R.Tensor((2,), dtype="int64") = R.add(axes, R.const(3, "int64"))
            lv2: R.Shape([20, 10, 5]) = R.shape_of(x)
            lv3: R.Tensor((2,), dtype="int64") = R.where(lv, lv1, axes)
            lv4: R.Tensor((3,), dtype="int64") = R.shape_to_tensor(lv2)
            lv5: R.Tensor((3,), dtype="int64") = R.scatter_elements(metadata["relax.expr.Constant"][0], lv3, starts, axis=0, reduction="update")
            lv6: R.Tensor((3,), dtype="int64") = R.scatter_elements(lv4, lv3, ends, axis=0, reduction="update")
            lv7: R.Tensor((3,), dtype="int64") = R.scatter_elements(metadata["relax.expr.Constant"][1], lv3, steps, axis=0, reduction="update")
            gv: R.Tensor(dtype="float32", ndim=3) = R.dynamic_strided_slice(x, lv5, lv6, lv7)
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
