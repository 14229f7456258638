# TVM 0.25 `relax.frontend.onnx.from_onnx` of an ONNX `Resize` (`resize1d_nearest`, built in
# `make_resize_modules` of the docs), printed by `mod.script()`.

# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def resize1d(X: T.Buffer((T.int64(1), T.int64(2), T.int64(4)), "float32"), resize: T.Buffer((T.int64(1), T.int64(2), T.int64(6)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1, i2 in T.grid(T.int64(1), T.int64(2), T.int64(6)):
            with T.sblock("resize"):
                v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(X[v_i0, v_i1, T.int64(0):T.int64(4)])
                T.writes(resize[v_i0, v_i1, v_i2])
                resize[v_i0, v_i1, v_i2] = X[v_i0, v_i1, T.max(T.min(T.Cast("int64", T.ceil((T.Cast("float32", v_i2) + T.float32(0.5)) * T.float32(0.66666668653488159) - T.float32(0.5) - T.float32(0.5))), T.int64(3)), T.int64(0))]

    @R.function
    def main(X: R.Tensor((1, 2, 4), dtype="float32")) -> R.Tensor((1, 2, 6), dtype="float32"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.resize1d, (X,), out_sinfo=R.Tensor((1, 2, 6), dtype="float32"))
            gv: R.Tensor((1, 2, 6), dtype="float32") = lv
            R.output(gv)
        return gv
