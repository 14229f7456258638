from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def einsum(x: T.Buffer((T.int64(3), T.int64(5), T.int64(5)), "float64"), T_einsum: T.Buffer((T.int64(3), T.int64(5)), "float64")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1 in T.grid(T.int64(3), T.int64(5)):
            with T.sblock("T_einsum"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0, v_ax1, v_ax1])
                T.writes(T_einsum[v_ax0, v_ax1])
                T_einsum[v_ax0, v_ax1] = x[v_ax0, v_ax1, v_ax1]

    @R.function
    def main(x: R.Tensor((3, 5, 5), dtype="float64")) -> R.Tensor((3, 5), dtype="float64"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.einsum, (x,), out_sinfo=R.Tensor((3, 5), dtype="float64"))
            gv: R.Tensor((3, 5), dtype="float64") = lv
            R.output(gv)
        return gv
