# TVM 0.25 `relax.frontend.onnx.from_onnx` of the ONNX node test `test_reflect_pad`
# (its inputs after the first as constants), printed by `mod.script()`.

# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def mirror_pad(x: T.Buffer((T.int64(1), T.int64(3), T.int64(4), T.int64(5)), "int32"), MirrorPadInput: T.Buffer((T.int64(1), T.int64(3), T.int64(6), T.int64(7)), "int32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(6), T.int64(7)):
            with T.sblock("MirrorPadInput"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, T.int64(0):T.int64(4), T.int64(0):T.int64(5)])
                T.writes(MirrorPadInput[v_i0, v_i1, v_i2, v_i3])
                MirrorPadInput[v_i0, v_i1, v_i2, v_i3] = x[v_i0, v_i1, T.if_then_else(T.int64(5) <= v_i2, T.int64(7) - v_i2, T.if_then_else(v_i2 < T.int64(1), T.int64(1) - v_i2, v_i2 - T.int64(1))), T.if_then_else(T.int64(6) <= v_i3, T.int64(9) - v_i3, T.if_then_else(v_i3 < T.int64(1), T.int64(1) - v_i3, v_i3 - T.int64(1)))]

    @R.function
    def main(x: R.Tensor((1, 3, 4, 5), dtype="int32")) -> R.Tensor((1, 3, 6, 7), dtype="int32"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.mirror_pad, (x,), out_sinfo=R.Tensor((1, 3, 6, 7), dtype="int32"))
            gv: R.Tensor((1, 3, 6, 7), dtype="int32") = lv
            R.output(gv)
        return gv
