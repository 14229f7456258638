from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def einsum(x: T.Buffer((T.int64(5), T.int64(2), T.int64(3)), "float64"), y: T.Buffer((T.int64(5), T.int64(3), T.int64(4)), "float64"), T_einsum: T.Buffer((T.int64(5), T.int64(2), T.int64(4)), "float64")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1, ax2, j in T.grid(T.int64(5), T.int64(2), T.int64(4), T.int64(3)):
            with T.sblock("T_einsum"):
                v_ax0, v_ax1, v_ax2, v_j = T.axis.remap("SSSR", [ax0, ax1, ax2, j])
                T.reads(x[v_ax0, v_ax1, v_j], y[v_ax0, v_j, v_ax2])
                T.writes(T_einsum[v_ax0, v_ax1, v_ax2])
                with T.init():
                    T_einsum[v_ax0, v_ax1, v_ax2] = T.float64(0.0)
                T_einsum[v_ax0, v_ax1, v_ax2] = T_einsum[v_ax0, v_ax1, v_ax2] + x[v_ax0, v_ax1, v_j] * y[v_ax0, v_j, v_ax2]

    @R.function
    def main(x: R.Tensor((5, 2, 3), dtype="float64"), y: R.Tensor((5, 3, 4), dtype="float64")) -> R.Tensor((5, 2, 4), dtype="float64"):
        R.func_attr({"num_input": 2})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.einsum, (x, y), out_sinfo=R.Tensor((5, 2, 4), dtype="float64"))
            gv: R.Tensor((5, 2, 4), dtype="float64") = lv
            R.output(gv)
        return gv
