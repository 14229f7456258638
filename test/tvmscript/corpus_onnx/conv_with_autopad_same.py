from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def pad(x: T.Buffer((T.int64(1), T.int64(1), T.int64(5), T.int64(5)), "float32"), PadInput: T.Buffer((T.int64(1), T.int64(1), T.int64(7), T.int64(7)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(1), T.int64(7), T.int64(7)):
            with T.sblock("PadInput"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)])
                T.writes(PadInput[v_i0, v_i1, v_i2, v_i3])
                PadInput[v_i0, v_i1, v_i2, v_i3] = T.if_then_else(T.int64(1) <= v_i2 and v_i2 < T.int64(6) and T.int64(1) <= v_i3 and v_i3 < T.int64(6), x[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((1, 1, 5, 5), dtype="float32"), W: R.Tensor((1, 1, 3, 3), dtype="float32")) -> R.Tensor((1, 1, 3, 3), dtype="float32"):
        R.func_attr({"num_input": 2})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.pad, (x,), out_sinfo=R.Tensor((1, 1, 7, 7), dtype="float32"))
            gv: R.Tensor((1, 1, 3, 3), dtype="float32") = R.nn.conv2d(lv, W, strides=[2, 2], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            R.output(gv)
        return gv
