from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 1, 5), dtype="float32"), axes: R.Tensor((1,), dtype="int64")) -> R.Tensor(dtype="float32", ndim=3):
        R.func_attr({"num_input": 2})
        squeeze_num_keep_dims = T.int64()
        squeeze_dim_0 = T.int64()
        squeeze_dim_1 = T.int64()
        squeeze_dim_2 = T.int64()
        with R.dataflow():
            lv: R.Shape([1, 3, 1, 5]) = R.shape_of(x)
            lv1: R.Tensor((1,), dtype="bool") = R.less(axes, R.const(0, "int64"))
            lv2: R.Tensor((1,), dtype="int64") = R.add(axes, R.const(4, "int64"))
            lv3: R.Tensor((4,), dtype="int64") = R.arange(R.prim_value(0), R.prim_value(4), R.prim_value(1), dtype="int64")
            lv4: R.Tensor((1,), dtype="int64") = R.where(lv1, lv2, axes)
            lv5: R.Tensor((4, 1), dtype="int64") = R.expand_dims(lv3, axis=[1])
            lv6: R.Tensor((1, 1), dtype="int64") = R.expand_dims(lv4, axis=[0])
            lv7: R.Tensor((4, 1), dtype="bool") = R.equal(lv5, lv6)
            lv8: R.Tensor((4, 1), dtype="int64") = R.astype(lv7, dtype="int64")
            lv9: R.Tensor((4,), dtype="int64") = R.sum(lv8, axis=[1], keepdims=False)
            lv10: R.Tensor((4,), dtype="bool") = R.equal(lv9, R.const(0, "int64"))
            lv11: R.Tensor((1, squeeze_num_keep_dims), dtype="int64") = R.match_cast(R.nonzero(lv10), R.Tensor((1, squeeze_num_keep_dims), dtype="int64"))
            lv12: R.Tensor((4,), dtype="int64") = R.shape_to_tensor(lv)
            lv13: R.Tensor((squeeze_num_keep_dims,), dtype="int64") = R.reshape(lv11, R.shape([squeeze_num_keep_dims]))
            lv14: R.Tensor((3,), dtype="int64") = R.match_cast(R.take(lv12, lv13, axis=0, mode="fast"), R.Tensor((3,), dtype="int64"))
            lv15: R.Shape(ndim=3) = R.tensor_to_shape(lv14)
            lv16: R.Shape([squeeze_dim_0, squeeze_dim_1, squeeze_dim_2]) = R.match_cast(lv15, R.Shape([squeeze_dim_0, squeeze_dim_1, squeeze_dim_2]))
            gv: R.Tensor((squeeze_dim_0, squeeze_dim_1, squeeze_dim_2), dtype="float32") = R.reshape(x, R.shape([squeeze_dim_0, squeeze_dim_1, squeeze_dim_2]))
            R.output(gv)
        return gv
