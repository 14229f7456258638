# TVM 0.25 `relax.frontend.onnx.from_onnx` of the ONNX node test `test_cumsum_1d_reverse_exclusive`
# (its inputs after the first as constants), printed by `mod.script()`.

# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def flip(x: T.Buffer((T.int64(5),), "float64"), T_reverse_sequence: T.Buffer((T.int64(5),), "float64")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0 in range(T.int64(5)):
            with T.sblock("T_reverse_sequence"):
                v_ax0 = T.axis.spatial(T.int64(5), ax0)
                T.reads(x[T.int64(4) - v_ax0])
                T.writes(T_reverse_sequence[v_ax0])
                T_reverse_sequence[v_ax0] = x[T.int64(4) - v_ax0]

    @R.function
    def main(x: R.Tensor((5,), dtype="float64")) -> R.Tensor((5,), dtype="float64"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.flip, (x,), out_sinfo=R.Tensor((5,), dtype="float64"))
            lv1: R.Tensor((5,), dtype="float64") = R.cumsum(lv, axis=0, dtype="void", exclusive=True)
            lv2 = R.call_tir(cls.flip, (lv1,), out_sinfo=R.Tensor((5,), dtype="float64"))
            gv: R.Tensor((5,), dtype="float64") = lv2
            R.output(gv)
        return gv
