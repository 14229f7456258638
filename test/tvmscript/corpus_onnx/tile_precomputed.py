from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def dyn_tile(x: T.Buffer((T.int64(2), T.int64(2)), "float32"), var_T_tile: T.handle):
        T.func_attr({"tirx.noalias": True})
        tile_dim_0, tile_dim_1 = T.int64(), T.int64()
        T_tile = T.match_buffer(var_T_tile, (tile_dim_0, tile_dim_1))
        # with T.sblock("root"):
        for ax0, ax1 in T.grid(tile_dim_0, tile_dim_1):
            with T.sblock("T_tile"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(x[v_ax0 % T.int64(2), v_ax1 % T.int64(2)])
                T.writes(T_tile[v_ax0, v_ax1])
                T_tile[v_ax0, v_ax1] = x[v_ax0 % T.int64(2), v_ax1 % T.int64(2)]

    @R.function
    def main(x: R.Tensor((2, 2), dtype="float32"), y: R.Tensor((2,), dtype="int64")) -> R.Tensor(dtype="float32", ndim=2):
        R.func_attr({"num_input": 2})
        tile_dim_0 = T.int64()
        tile_dim_1 = T.int64()
        cls = Module
        with R.dataflow():
            lv: R.Shape([2, 2]) = R.shape_of(x)
            lv1: R.Tensor((2,), dtype="int64") = R.shape_to_tensor(lv)
            lv2: R.Tensor((2,), dtype="int64") = R.multiply(y, lv1)
            lv3: R.Shape([tile_dim_0, tile_dim_1]) = R.match_cast(R.tensor_to_shape(lv2), R.Shape([tile_dim_0, tile_dim_1]))
            lv4 = R.call_tir(cls.dyn_tile, (x,), out_sinfo=R.Tensor((tile_dim_0, tile_dim_1), dtype="float32"))
            gv: R.Tensor((tile_dim_0, tile_dim_1), dtype="float32") = lv4
            R.output(gv)
        return gv
