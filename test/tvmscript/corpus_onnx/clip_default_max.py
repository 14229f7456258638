from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def minimum(x: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "float32"), lv1: T.Buffer((), "float32"), T_minimum: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1, ax2 in T.grid(T.int64(3), T.int64(4), T.int64(5)):
            with T.sblock("T_minimum"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1, v_ax2], lv1[()])
                T.writes(T_minimum[v_ax0, v_ax1, v_ax2])
                T_minimum[v_ax0, v_ax1, v_ax2] = T.min(x[v_ax0, v_ax1, v_ax2], lv1[()])

    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="float32"), max: R.Tensor((), dtype="float32")) -> R.Tensor((3, 4, 5), dtype="float32"):
        R.func_attr({"num_input": 2})
        cls = Module
        with R.dataflow():
            lv: R.Tensor((), dtype="bool") = R.isnan(max)
            lv1: R.Tensor((), dtype="float32") = R.where(lv, R.const("inf", "float32"), max)
            lv2 = R.call_tir(cls.minimum, (x, lv1), out_sinfo=R.Tensor((3, 4, 5), dtype="float32"))
            lv3: R.Tensor((3, 4, 5), dtype="bool") = R.isnan(x)
            lv4: R.Tensor((3, 4, 5), dtype="float32") = R.where(lv3, x, lv2)
            gv: R.Tensor((3, 4, 5), dtype="float32") = lv4
            R.output(gv)
        return gv
