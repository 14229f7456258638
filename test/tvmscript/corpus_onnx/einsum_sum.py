from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def einsum(x: T.Buffer((T.int64(3), T.int64(4)), "float64"), T_einsum: T.Buffer((T.int64(3),), "float64")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, j in T.grid(T.int64(3), T.int64(4)):
            with T.sblock("T_einsum"):
                v_ax0, v_j = T.axis.remap("SR", [ax0, j])
                T.reads(x[v_ax0, v_j])
                T.writes(T_einsum[v_ax0])
                with T.init():
                    T_einsum[v_ax0] = T.float64(0.0)
                T_einsum[v_ax0] = T_einsum[v_ax0] + x[v_ax0, v_j]

    @R.function
    def main(x: R.Tensor((3, 4), dtype="float64")) -> R.Tensor((3,), dtype="float64"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.einsum, (x,), out_sinfo=R.Tensor((3,), dtype="float64"))
            gv: R.Tensor((3,), dtype="float64") = lv
            R.output(gv)
        return gv
