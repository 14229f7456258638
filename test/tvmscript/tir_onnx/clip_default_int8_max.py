# TVM 0.25 `relax.frontend.onnx.from_onnx` of the ONNX node test `test_clip_default_int8_max`
# (its inputs after the first as constants), printed by `mod.script()`.

# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def minimum(x: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "int8"), B: T.Buffer((), "int8"), T_minimum: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "int8")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1, ax2 in T.grid(T.int64(3), T.int64(4), T.int64(5)):
            with T.sblock("T_minimum"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1, v_ax2], B[()])
                T.writes(T_minimum[v_ax0, v_ax1, v_ax2])
                T_minimum[v_ax0, v_ax1, v_ax2] = T.min(x[v_ax0, v_ax1, v_ax2], B[()])

    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="int8")) -> R.Tensor((3, 4, 5), dtype="int8"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.minimum, (x, R.const(0, "int8")), out_sinfo=R.Tensor((3, 4, 5), dtype="int8"))
            gv: R.Tensor((3, 4, 5), dtype="int8") = lv
            R.output(gv)
        return gv
