from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor((4, 3), dtype="uint8"), B: R.Tensor((3, 2), dtype="uint8"), a_zero_point: R.Tensor((1,), dtype="uint8"), b_zero_point: R.Tensor((1,), dtype="uint8")) -> R.Tensor((4, 2), dtype="int32"):
        R.func_attr({"num_input": 4})
        with R.dataflow():
            lv: R.Tensor((4, 3), dtype="int32") = R.astype(A, dtype="int32")
            lv1: R.Tensor((1,), dtype="int32") = R.astype(a_zero_point, dtype="int32")
            lv2: R.Tensor((1, 1), dtype="int32") = R.expand_dims(lv1, axis=[-1])
            lv3: R.Tensor((4, 3), dtype="int32") = R.subtract(lv, lv2)
            lv4: R.Tensor((3, 2), dtype="int32") = R.astype(B, dtype="int32")
            lv5: R.Tensor((1,), dtype="int32") = R.astype(b_zero_point, dtype="int32")
            lv6: R.Tensor((1, 1), dtype="int32") = R.expand_dims(lv5, axis=[0])
            lv7: R.Tensor((3, 2), dtype="int32") = R.subtract(lv4, lv6)
            gv: R.Tensor((4, 2), dtype="int32") = R.matmul(lv3, lv7, out_dtype="int32")
            R.output(gv)
        return gv
