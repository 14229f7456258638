from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32"), axes: R.Tensor((2,), dtype="int64")) -> R.Tensor(dtype="float32", ndim=5):
        R.func_attr({"num_input": 2})
        unsqueeze_dim_0 = T.int64()
        unsqueeze_dim_1 = T.int64()
        unsqueeze_dim_2 = T.int64()
        unsqueeze_dim_3 = T.int64()
        unsqueeze_dim_4 = T.int64()
        with R.dataflow():
            lv: R.Shape([3, 4, 5]) = R.shape_of(x)
            lv1: R.Tensor((2,), dtype="bool") = R.less(axes, R.const(0, "int64"))
            lv2: R.Tensor((2,), dtype="int64") = R.add(axes, R.const(5, "int64"))
            lv3: R.Tensor((5,), dtype="int64") = R.arange(R.prim_value(0), R.prim_value(5), R.prim_value(1), dtype="int64")
            lv4: R.Tensor((2,), dtype="int64") = R.where(lv1, lv2, axes)
            lv5: R.Tensor((5, 1), dtype="int64") = R.expand_dims(lv3, axis=[1])
            lv6: R.Tensor((1, 2), dtype="int64") = R.expand_dims(lv4, axis=[0])
            lv7: R.Tensor((5, 2), dtype="bool") = R.equal(lv5, lv6)
            lv8: R.Tensor((5, 2), dtype="int64") = R.astype(lv7, dtype="int64")
            lv9: R.Tensor((5,), dtype="int64") = R.sum(lv8, axis=[1], keepdims=False)
            lv10: R.Tensor((5,), dtype="int64") = R.subtract(R.const(1, "int64"), lv9)
            lv11: R.Tensor((5,), dtype="int64") = R.cumsum(lv10, axis=0, dtype="void", exclusive=False)
            lv12: R.Tensor((5,), dtype="int64") = R.subtract(lv11, R.const(1, "int64"))
            lv13: R.Tensor((5,), dtype="bool") = R.less(lv12, R.const(0, "int64"))
            lv14: R.Tensor((3,), dtype="int64") = R.shape_to_tensor(lv)
            lv15: R.Tensor((5,), dtype="int64") = R.where(lv13, R.const(0, "int64"), lv12)
            lv16: R.Tensor((5,), dtype="bool") = R.greater(lv9, R.const(0, "int64"))
            lv17: R.Tensor((5,), dtype="int64") = R.take(lv14, lv15, axis=0, mode="fast")
            lv18: R.Tensor((5,), dtype="int64") = R.match_cast(R.where(lv16, R.const(1, "int64"), lv17), R.Tensor((5,), dtype="int64"))
            lv19: R.Shape(ndim=5) = R.tensor_to_shape(lv18)
            lv20: R.Shape([unsqueeze_dim_0, unsqueeze_dim_1, unsqueeze_dim_2, unsqueeze_dim_3, unsqueeze_dim_4]) = R.match_cast(lv19, R.Shape([unsqueeze_dim_0, unsqueeze_dim_1, unsqueeze_dim_2, unsqueeze_dim_3, unsqueeze_dim_4]))
            gv: R.Tensor((unsqueeze_dim_0, unsqueeze_dim_1, unsqueeze_dim_2, unsqueeze_dim_3, unsqueeze_dim_4), dtype="float32") = R.reshape(x, R.shape([unsqueeze_dim_0, unsqueeze_dim_1, unsqueeze_dim_2, unsqueeze_dim_3, unsqueeze_dim_4]))
            R.output(gv)
        return gv
