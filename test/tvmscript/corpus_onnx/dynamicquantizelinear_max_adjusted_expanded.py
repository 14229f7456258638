from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def maximum(A: T.Buffer((), "float32"), lv26: T.Buffer((), "float32"), T_maximum: T.Buffer((), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        with T.sblock("T_maximum"):
            vi = T.axis.spatial(1, T.int64(0))
            T.reads(A[()], lv26[()])
            T.writes(T_maximum[()])
            T_maximum[()] = T.max(A[()], lv26[()])

    @T.prim_func(private=True, s_tir=True)
    def minimum(lv28: T.Buffer((), "float32"), lv30: T.Buffer((), "float32"), T_minimum: T.Buffer((), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        with T.sblock("T_minimum"):
            vi = T.axis.spatial(1, T.int64(0))
            T.reads(lv28[()], lv30[()])
            T.writes(T_minimum[()])
            T_minimum[()] = T.min(lv28[()], lv30[()])

    @R.function
    def main(x: R.Tensor((6,), dtype="float32")) -> R.Tuple(R.Tensor((6,), dtype="uint8"), R.Tensor((), dtype="float32"), R.Tensor((), dtype="uint8")):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv: R.Tensor((6,), dtype="bool") = R.isnan(x)
            lv1: R.Tensor((6,), dtype="float32") = R.astype(lv, dtype="float32")
            lv2: R.Tensor((), dtype="float32") = R.sum(lv1, axis=None, keepdims=False)
            lv3: R.Tensor((), dtype="bool") = R.greater(lv2, R.const(0.0, "float32"))
            lv4: R.Tensor((), dtype="float32") = R.min(x, axis=None, keepdims=False)
            lv5: R.Tensor((), dtype="float32") = R.full_like(lv4, R.const("nan", "float32"), dtype="void")
            lv6: R.Tensor((), dtype="float32") = R.where(lv3, lv5, lv4)
            lv7: R.Tensor((), dtype="float32") = R.broadcast_to(lv6, R.shape([]))
            lv8: R.Tensor((), dtype="float32") = R.broadcast_to(R.const(0.0, "float32"), R.shape([]))
            lv9: R.Tensor((2,), dtype="float32") = R.stack((lv7, lv8), axis=0)
            lv10: R.Tensor((6,), dtype="bool") = R.isnan(x)
            lv11: R.Tensor((6,), dtype="float32") = R.astype(lv10, dtype="float32")
            lv12: R.Tensor((), dtype="float32") = R.sum(lv11, axis=None, keepdims=False)
            lv13: R.Tensor((), dtype="bool") = R.greater(lv12, R.const(0.0, "float32"))
            lv14: R.Tensor((), dtype="float32") = R.max(x, axis=None, keepdims=False)
            lv15: R.Tensor((), dtype="float32") = R.full_like(lv14, R.const("nan", "float32"), dtype="void")
            lv16: R.Tensor((), dtype="float32") = R.where(lv13, lv15, lv14)
            lv17: R.Tensor((), dtype="float32") = R.broadcast_to(lv16, R.shape([]))
            lv18: R.Tensor((), dtype="float32") = R.broadcast_to(R.const(0.0, "float32"), R.shape([]))
            lv19: R.Tensor((2,), dtype="float32") = R.stack((lv17, lv18), axis=0)
            lv20: R.Tensor((), dtype="float32") = R.max(lv19, axis=[0], keepdims=False)
            lv21: R.Tensor((), dtype="float32") = R.min(lv9, axis=[0], keepdims=False)
            lv22: R.Tensor((), dtype="float32") = R.subtract(lv20, lv21)
            lv23: R.Tensor((), dtype="float32") = R.divide(lv22, R.const(255.0, "float32"))
            lv24: R.Tensor((), dtype="float32") = R.divide(lv21, lv23)
            lv25: R.Tensor((), dtype="bool") = R.isnan(R.const(0.0, "float32"))
            lv26: R.Tensor((), dtype="float32") = R.where(lv25, R.const("-inf", "float32"), R.const(0.0, "float32"))
            lv27: R.Tensor((), dtype="float32") = R.subtract(R.const(0.0, "float32"), lv24)
            lv28 = R.call_tir(cls.maximum, (lv27, lv26), out_sinfo=R.Tensor((), dtype="float32"))
            lv29: R.Tensor((), dtype="bool") = R.isnan(R.const(255.0, "float32"))
            lv30: R.Tensor((), dtype="float32") = R.where(lv29, R.const("inf", "float32"), R.const(255.0, "float32"))
            lv31 = R.call_tir(cls.minimum, (lv28, lv30), out_sinfo=R.Tensor((), dtype="float32"))
            lv32: R.Tensor((), dtype="bool") = R.isnan(lv27)
            lv33: R.Tensor((), dtype="float32") = R.where(lv32, lv27, lv31)
            lv34: R.Tensor((), dtype="float32") = R.round(lv33)
            lv35: R.Tensor((), dtype="bool") = R.isfinite(lv34)
            lv36: R.Tensor((), dtype="bool") = R.logical_not(lv35)
            lv37: R.Tensor((), dtype="float32") = R.where(lv36, R.const(0.0, "float32"), lv34)
            lv38: R.Tensor((), dtype="int32") = R.astype(lv37, dtype="int32")
            lv39: R.Tensor((), dtype="int32") = R.bitwise_and(lv38, R.const(255, "int32"))
            lv40: R.Tensor((), dtype="uint8") = R.astype(lv39, dtype="uint8")
            lv41: R.Tensor((6,), dtype="uint8") = R.quantize(x, lv23, lv40, out_dtype="uint8", axis=0)
            gv: R.Tuple(R.Tensor((6,), dtype="uint8"), R.Tensor((), dtype="float32"), R.Tensor((), dtype="uint8")) = lv41, lv23, lv40
            R.output(gv)
        return gv
