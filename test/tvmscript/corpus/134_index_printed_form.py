"""Indexing in the form TVM prints: `R.take(x, i, axis=0, mode="fast")`,
`R.strided_slice(x, (R.prim_value(1),), (R.prim_value(0),), (R.prim_value(4),),
(R.prim_value(2),), assume_inbound=False)` with symbolic bounds, `R.gather_nd(...,
batch_dims=0)`, `R.one_hot(..., depth=3, axis=-1)`."""
# ruff: noqa
# run: main n=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32"), i: R.Tensor((2,), dtype="int64")) -> R.Tuple(R.Tensor((2, 6), dtype="float32"), R.Tensor(("n", 3), dtype="float32"), R.Tensor(("n - 1", 6), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((2, 6), dtype="float32") = R.take(x, i, axis=0, mode="fast")
            lv1: R.Tensor((n, 3), dtype="float32") = R.strided_slice(x, (R.prim_value(1),), (R.prim_value(0),), (R.prim_value(6),), (R.prim_value(2),), assume_inbound=False)
            lv2: R.Tensor((n - 1, 6), dtype="float32") = R.strided_slice(x, (R.prim_value(0),), (R.prim_value(1),), (R.prim_value(n),), assume_inbound=False)
            lv3: R.Tensor((2, 3), dtype="float32") = R.one_hot(i, R.prim_value(T.float32(1.0)), R.prim_value(T.float32(0.0)), depth=3, axis=-1)
            gv = (lv, lv1, lv2, lv3)
            R.output(gv)
        return gv
