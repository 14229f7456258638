from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def minimum(x: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "int8"), max: T.Buffer((), "int8"), T_minimum: T.Buffer((T.int64(3), T.int64(4), T.int64(5)), "int8")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1, ax2 in T.grid(T.int64(3), T.int64(4), T.int64(5)):
            with T.sblock("T_minimum"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                T.reads(x[v_ax0, v_ax1, v_ax2], max[()])
                T.writes(T_minimum[v_ax0, v_ax1, v_ax2])
                T_minimum[v_ax0, v_ax1, v_ax2] = T.min(x[v_ax0, v_ax1, v_ax2], max[()])

    @R.function
    def main(x: R.Tensor((3, 4, 5), dtype="int8"), max: R.Tensor((), dtype="int8")) -> R.Tensor((3, 4, 5), dtype="int8"):
        R.func_attr({"num_input": 2})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.minimum, (x, max), out_sinfo=R.Tensor((3, 4, 5), dtype="int8"))
            gv: R.Tensor((3, 4, 5), dtype="int8") = lv
            R.output(gv)
        return gv
