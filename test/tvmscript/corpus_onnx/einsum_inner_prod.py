from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def einsum(x: T.Buffer((T.int64(5),), "float64"), y: T.Buffer((T.int64(5),), "float64"), T_einsum: T.Buffer((), "float64")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for i in range(T.int64(5)):
            with T.sblock("T_einsum"):
                v_i = T.axis.reduce(T.int64(5), i)
                T.reads(x[v_i], y[v_i])
                T.writes(T_einsum[()])
                with T.init():
                    T_einsum[()] = T.float64(0.0)
                T_einsum[()] = T_einsum[()] + x[v_i] * y[v_i]

    @R.function
    def main(x: R.Tensor((5,), dtype="float64"), y: R.Tensor((5,), dtype="float64")) -> R.Tensor((), dtype="float64"):
        R.func_attr({"num_input": 2})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.einsum, (x, y), out_sinfo=R.Tensor((), dtype="float64"))
            gv: R.Tensor((), dtype="float64") = lv
            R.output(gv)
        return gv
