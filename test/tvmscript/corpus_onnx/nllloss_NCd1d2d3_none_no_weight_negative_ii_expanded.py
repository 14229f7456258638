from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(input: R.Tensor((3, 5, 6, 6, 5), dtype="float32"), target: R.Tensor((3, 6, 6, 5), dtype="int64")) -> R.Tensor((3, 6, 6, 5), dtype="float32"):
        R.func_attr({"num_input": 2})
        with R.dataflow():
            lv: R.Tensor((3, 1, 6, 6, 5), dtype="int64") = R.expand_dims(target, axis=[1])
            lv1: R.Tensor((3, 1, 6, 6, 5), dtype="int64") = R.astype(lv, dtype="int64")
            lv2: R.Tensor((3, 1, 6, 6, 5), dtype="bool") = R.equal(lv1, metadata["relax.expr.Constant"][0])
            lv3: R.Tensor((3, 1, 6, 6, 5), dtype="int64") = R.subtract(lv, lv)
            lv4: R.Tensor((3, 1, 6, 6, 5), dtype="int64") = R.where(lv2, lv3, lv)
            lv5: R.Tensor((3, 1, 6, 6, 5), dtype="float32") = R.gather_elements(input, lv4, axis=1)
            lv6: R.Tensor((3, 1, 6, 6, 5), dtype="float32") = R.where(lv2, metadata["relax.expr.Constant"][1], lv5)
            lv7: R.Tensor((3, 1, 6, 6, 5), dtype="float32") = R.negative(lv6)
            lv8: R.Tensor((3, 6, 6, 5), dtype="bool") = R.squeeze(lv2, axis=[1])
            lv9: R.Tensor((3, 1, 6, 6, 5), dtype="float32") = R.strided_slice(lv7, (R.prim_value(1),), (R.prim_value(0),), (R.prim_value(1),), (R.prim_value(1),), assume_inbound=False)
            lv10: R.Tensor((3, 6, 6, 5), dtype="float32") = R.squeeze(lv9, axis=[1])
            lv11: R.Tensor((3, 6, 6, 5), dtype="float32") = R.where(lv8, metadata["relax.expr.Constant"][1], metadata["relax.expr.Constant"][2])
            gv: R.Tensor((3, 6, 6, 5), dtype="float32") = R.multiply(lv10, lv11)
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
