from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((3, 5, 6), dtype="float32"), target: R.Tensor((3, 6), dtype="int64"), weight: R.Tensor((5,), dtype="float32")) -> R.Tensor((), dtype="float32"):
        R.func_attr({"num_input": 3})
        with R.dataflow():
            lv: R.Tensor((3, 1, 6), dtype="int64") = R.expand_dims(target, axis=[1])
            lv1: R.Tensor((3, 1, 6), dtype="int64") = R.astype(lv, dtype="int64")
            lv2: R.Tensor((3, 1, 6), dtype="bool") = R.equal(lv1, metadata["relax.expr.Constant"][0])
            lv3: R.Tensor((3, 1, 6), dtype="int64") = R.subtract(lv, lv)
            lv4: R.Tensor((3, 1, 6), dtype="int64") = R.where(lv2, lv3, lv)
            lv5: R.Tensor((3, 1, 6), dtype="float32") = R.gather_elements(input, lv4, axis=1)
            lv6: R.Tensor((3, 1, 6), dtype="float32") = R.where(lv2, metadata["relax.expr.Constant"][1], lv5)
            lv7: R.Tensor((3, 1, 6), dtype="float32") = R.negative(lv6)
            lv8: R.Shape([5]) = R.shape_of(weight)
            lv9: R.Tensor((1,), dtype="int64") = R.shape_to_tensor(lv8)
            lv10: R.Tensor((3, 1, 6), dtype="bool") = R.less(lv4, R.const(0, "int64"))
            lv11: R.Tensor((), dtype="int64") = R.take(lv9, R.const(0, "int64"), axis=0, mode="wrap")
            lv12: R.Tensor((3, 1, 6), dtype="int64") = R.add(lv4, lv11)
            lv13: R.Tensor((3, 1, 6), dtype="int64") = R.where(lv10, lv12, lv4)
            lv14: R.Tensor((3, 1, 6), dtype="float32") = R.take(weight, lv13, axis=0, mode="fast")
            lv15: R.Tensor((3, 1, 6), dtype="float32") = R.where(lv2, metadata["relax.expr.Constant"][1], lv14)
            lv16: R.Tensor((3, 1, 6), dtype="float32") = R.strided_slice(lv7, (R.prim_value(1),), (R.prim_value(0),), (R.prim_value(1),), (R.prim_value(1),), assume_inbound=False)
            lv17: R.Tensor((3, 6), dtype="float32") = R.squeeze(lv16, axis=[1])
            lv18: R.Tensor((3, 6), dtype="float32") = R.squeeze(lv15, axis=[1])
            lv19: R.Tensor((3, 6), dtype="float32") = R.multiply(lv17, lv18)
            lv20: R.Tensor((), dtype="float32") = R.sum(lv19, axis=None, keepdims=False)
            lv21: R.Tensor((), dtype="float32") = R.sum(lv18, axis=None, keepdims=False)
            gv: R.Tensor((), dtype="float32") = R.divide(lv20, lv21)
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
