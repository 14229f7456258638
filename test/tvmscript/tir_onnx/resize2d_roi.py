# TVM 0.25 `relax.frontend.onnx.from_onnx` of an ONNX `Resize` (`resize2d_roi`, built in
# `make_resize_modules` of the docs), printed by `mod.script()`.

# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def resize2d_dyn(X: T.Buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(4)), "float32"), B: T.Buffer((T.int64(4),), "float32"), resize: T.Buffer((T.int64(1), T.int64(2), T.int64(6), T.int64(6)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(2), T.int64(6), T.int64(6)):
            with T.sblock("resize"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(B[T.int64(0):T.int64(4)], X[v_i0, v_i1, T.int64(0):T.int64(4), T.int64(0):T.int64(4)])
                T.writes(resize[v_i0, v_i1, v_i2, v_i3])
                resize[v_i0, v_i1, v_i2, v_i3] = T.if_then_else(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0) < T.float32(0.0), T.float32(0.0), T.if_then_else(T.float32(3.0) < B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0), T.float32(0.0), T.if_then_else(B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0) < T.float32(0.0), T.float32(0.0), T.if_then_else(T.float32(3.0) < B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0), T.float32(0.0), (X[v_i0, v_i1, T.max(T.min(T.Cast("int64", T.floor(B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0))), T.int64(3)), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0))), T.int64(3)), T.int64(0))] * (T.float32(1.0) - (B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0) - T.Cast("float32", T.Cast("int32", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0)))))) + X[v_i0, v_i1, T.max(T.min(T.Cast("int64", T.floor(B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0))), T.int64(3)), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0))) + T.int64(1), T.int64(3)), T.int64(0))] * (B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0) - T.Cast("float32", T.Cast("int32", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0)))))) * (T.float32(1.0) - (B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0) - T.Cast("float32", T.Cast("int32", T.floor(B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0)))))) + (X[v_i0, v_i1, T.max(T.min(T.Cast("int64", T.floor(B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0))) + T.int64(1), T.int64(3)), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0))), T.int64(3)), T.int64(0))] * (T.float32(1.0) - (B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0) - T.Cast("float32", T.Cast("int32", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0)))))) + X[v_i0, v_i1, T.max(T.min(T.Cast("int64", T.floor(B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0))) + T.int64(1), T.int64(3)), T.int64(0)), T.max(T.min(T.Cast("int64", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0))) + T.int64(1), T.int64(3)), T.int64(0))] * (B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0) - T.Cast("float32", T.Cast("int32", T.floor(B[T.int64(1)] * T.float32(3.0) + T.Cast("float32", v_i3) * (B[T.int64(3)] - B[T.int64(1)]) * T.float32(3.0) / T.float32(5.0)))))) * (B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0) - T.Cast("float32", T.Cast("int32", T.floor(B[T.int64(0)] * T.float32(3.0) + T.Cast("float32", v_i2) * (B[T.int64(2)] - B[T.int64(0)]) * T.float32(3.0) / T.float32(5.0)))))))))

    @R.function
    def main(X: R.Tensor((1, 2, 4, 4), dtype="float32"), roi: R.Tensor((8,), dtype="float32")) -> R.Tensor((1, 2, 6, 6), dtype="float32"):
        R.func_attr({"num_input": 2})
        cls = Module
        with R.dataflow():
            lv: R.Tensor((2,), dtype="float32") = R.strided_slice(roi, (R.prim_value(0),), (R.prim_value(2),), (R.prim_value(4),), assume_inbound=False)
            lv1: R.Tensor((2,), dtype="float32") = R.strided_slice(roi, (R.prim_value(0),), (R.prim_value(6),), (R.prim_value(8),), assume_inbound=False)
            lv2: R.Tensor((4,), dtype="float32") = R.concat((lv, lv1), axis=0)
            lv3 = R.call_tir(cls.resize2d_dyn, (X, lv2), out_sinfo=R.Tensor((1, 2, 6, 6), dtype="float32"))
            gv: R.Tensor((1, 2, 6, 6), dtype="float32") = lv3
            R.output(gv)
        return gv
