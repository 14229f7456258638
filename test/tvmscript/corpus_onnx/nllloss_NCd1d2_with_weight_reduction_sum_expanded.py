from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((3, 5, 6, 6), dtype="float32"), target: R.Tensor((3, 6, 6), dtype="int64"), weight: R.Tensor((5,), dtype="float32")) -> R.Tensor((), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((3, 1, 6, 6), dtype="int64") = R.expand_dims(target, axis=[1])
            lv1: R.Tensor((3, 1, 6, 6), dtype="float32") = R.gather_elements(input, lv, axis=1)
            lv2: R.Tensor((3, 1, 6, 6), dtype="float32") = R.negative(lv1)
            lv3: R.Shape([5]) = R.shape_of(weight)
            lv4: R.Tensor((1,), dtype="int64") = R.shape_to_tensor(lv3)
            lv5: R.Tensor((3, 6, 6), dtype="bool") = R.less(target, R.const(0, "int64"))
            lv6: R.Tensor((), dtype="int64") = R.take(lv4, R.const(0, "int64"), axis=0, mode="wrap")
            lv7: R.Tensor((3, 6, 6), dtype="int64") = R.add(target, lv6)
            lv8: R.Tensor((3, 6, 6), dtype="int64") = R.where(lv5, lv7, target)
            lv9: R.Tensor((3, 1, 6, 6), dtype="float32") = R.strided_slice(lv2, (R.prim_value(1),), (R.prim_value(0),), (R.prim_value(1),), (R.prim_value(1),), assume_inbound=False)
            lv10: R.Tensor((3, 6, 6), dtype="float32") = R.squeeze(lv9, axis=[1])
            lv11: R.Tensor((3, 6, 6), dtype="float32") = R.take(weight, lv8, axis=0, mode="fast")
            lv12: R.Tensor((3, 6, 6), dtype="float32") = R.multiply(lv10, lv11)
            gv: R.Tensor((), dtype="float32") = R.sum(lv12, axis=None, keepdims=False)
            R.output(gv)
        return gv
