from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((6,), dtype="float32")) -> R.Tuple(R.Tensor((6,), dtype="uint8"), R.Tensor((), dtype="float32"), R.Tensor((), dtype="uint8")):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((), dtype="float32") = R.max(x, axis=None, keepdims=False)
            lv1: R.Tensor((), dtype="float32") = R.maximum(R.const(0.0, "float32"), lv)
            lv2: R.Tensor((), dtype="float32") = R.min(x, axis=None, keepdims=False)
            lv3: R.Tensor((), dtype="float32") = R.minimum(R.const(0.0, "float32"), lv2)
            lv4: R.Tensor((), dtype="float32") = R.subtract(lv1, lv3)
            lv5: R.Tensor((), dtype="float32") = R.divide(lv4, R.const(255.0, "float32"))
            lv6: R.Tensor((), dtype="float32") = R.divide(lv3, lv5)
            lv7: R.Tensor((), dtype="float32") = R.subtract(R.const(0.0, "float32"), lv6)
            lv8: R.Tensor((), dtype="float32") = R.clip(lv7, R.prim_value(0), R.prim_value(255))
            lv9: R.Tensor((), dtype="float32") = R.round(lv8)
            lv10: R.Tensor((), dtype="uint8") = R.astype(lv9, dtype="uint8")
            lv11: R.Tensor((6,), dtype="uint8") = R.quantize(x, lv5, lv10, out_dtype="uint8", axis=0)
            gv: R.Tuple(R.Tensor((6,), dtype="uint8"), R.Tensor((), dtype="float32"), R.Tensor((), dtype="uint8")) = lv11, lv5, lv10
            R.output(gv)
        return gv
