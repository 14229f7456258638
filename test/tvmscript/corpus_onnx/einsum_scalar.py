from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def einsum(x: T.Buffer((), "float64"), T_einsum: T.Buffer((), "float64")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        with T.sblock("T_einsum"):
            vi = T.axis.spatial(1, T.int64(0))
            T.reads(x[()])
            T.writes(T_einsum[()])
            T_einsum[()] = x[()]

    @R.function
    def main(x: R.Tensor((), dtype="float64")) -> R.Tensor((), dtype="float64"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.einsum, (x,), out_sinfo=R.Tensor((), dtype="float64"))
            gv: R.Tensor((), dtype="float64") = lv
            R.output(gv)
        return gv
