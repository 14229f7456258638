from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def maximum(x: T.Buffer((T.int64(3),), "float32"), lv1: T.Buffer((), "float32"), T_maximum: T.Buffer((T.int64(3),), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0 in range(T.int64(3)):
            with T.sblock("T_maximum"):
                v_ax0 = T.axis.spatial(T.int64(3), ax0)
                T.reads(x[v_ax0], lv1[()])
                T.writes(T_maximum[v_ax0])
                T_maximum[v_ax0] = T.max(x[v_ax0], lv1[()])

    @T.prim_func(private=True, s_tir=True)
    def minimum(lv2: T.Buffer((T.int64(3),), "float32"), lv4: T.Buffer((), "float32"), T_minimum: T.Buffer((T.int64(3),), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0 in range(T.int64(3)):
            with T.sblock("T_minimum"):
                v_ax0 = T.axis.spatial(T.int64(3), ax0)
                T.reads(lv2[v_ax0], lv4[()])
                T.writes(T_minimum[v_ax0])
                T_minimum[v_ax0] = T.min(lv2[v_ax0], lv4[()])

    @R.function
    def main(x: R.Tensor((3,), dtype="float32"), min: R.Tensor((), dtype="float32"), max: R.Tensor((), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        R.func_attr({"num_input": 3})
        cls = Module
        with R.dataflow():
            lv: R.Tensor((), dtype="bool") = R.isnan(min)
            lv1: R.Tensor((), dtype="float32") = R.where(lv, R.const("-inf", "float32"), min)
            lv2 = R.call_tir(cls.maximum, (x, lv1), out_sinfo=R.Tensor((3,), dtype="float32"))
            lv3: R.Tensor((), dtype="bool") = R.isnan(max)
            lv4: R.Tensor((), dtype="float32") = R.where(lv3, R.const("inf", "float32"), max)
            lv5 = R.call_tir(cls.minimum, (lv2, lv4), out_sinfo=R.Tensor((3,), dtype="float32"))
            lv6: R.Tensor((3,), dtype="bool") = R.isnan(x)
            lv7: R.Tensor((3,), dtype="float32") = R.where(lv6, x, lv5)
            gv: R.Tensor((3,), dtype="float32") = lv7
            R.output(gv)
        return gv
