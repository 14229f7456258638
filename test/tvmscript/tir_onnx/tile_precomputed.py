# TVM 0.25 `relax.frontend.onnx.from_onnx` of the ONNX node test `test_tile_precomputed`
# (its inputs after the first as constants), printed by `mod.script()`.

# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def tile(x: T.Buffer((T.int64(2), T.int64(2)), "float32"), T_tile: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1 in T.grid(T.int64(4), T.int64(4)):
            with T.sblock("T_tile"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0 % T.int64(2), v_ax1 % T.int64(2)])
                T.writes(T_tile[v_ax0, v_ax1])
                T_tile[v_ax0, v_ax1] = x[v_ax0 % T.int64(2), v_ax1 % T.int64(2)]

    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.tile, (x,), out_sinfo=R.Tensor((4, 4), dtype="float32"))
            gv: R.Tensor((4, 4), dtype="float32") = lv
            R.output(gv)
        return gv
