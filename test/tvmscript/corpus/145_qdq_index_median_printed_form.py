"""Quantization, advanced indexing, slice scatter and median in the form TVM prints:
`R.quantize(x, s, z, out_dtype="int8", axis=-1)`, `R.index_tensor(x, (j, i))`,
`R.index_put(x, (j, i), v, accumulate=True)`, `R.slice_scatter(x, src,
R.prim_value(1), R.prim_value(4), R.prim_value(2), axis=1)`, `R.median(x,
axis=[1], keepdims=True)` (a tuple of values and indices). The drawn indices
address distinct positions: TVM's index_put writes them in parallel."""
# ruff: noqa
# run: main n=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), s: R.Tensor((4,), dtype="float32"), z: R.Tensor((4,), dtype="int8"), zu: R.Tensor((), dtype="uint8"), i: R.Tensor((2,), dtype="int64"), j: R.Tensor((2, 1), dtype="int64"), v: R.Tensor((4,), dtype="float32"), src: R.Tensor(("n", 2), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="int8"), R.Tensor(("n", 4), dtype="float16"), R.Tensor(("n", 4), dtype="uint8"), R.Tensor((2, 2), dtype="float32"), R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="float32"), R.Tensor((), dtype="float32"), R.Tensor(("n", 1), dtype="float32"), R.Tensor(("n", 1), dtype="int64")):
        n = T.int64()
        with R.dataflow():
            q: R.Tensor((n, 4), dtype="int8") = R.quantize(x, s, z, out_dtype="int8", axis=-1)
            d: R.Tensor((n, 4), dtype="float16") = R.dequantize(q, s, z, out_dtype="float16", axis=1)
            q0: R.Tensor((n, 4), dtype="uint8") = R.quantize(x, R.const(0.25, "float32"), zu, out_dtype="uint8", axis=0)
            t: R.Tensor((2, 2), dtype="float32") = R.index_tensor(x, (j, i))
            p: R.Tensor((n, 4), dtype="float32") = R.index_put(x, (j, i), v, accumulate=True)
            u: R.Tensor((n, 4), dtype="float32") = R.slice_scatter(x, src, R.prim_value(1), R.prim_value(4), R.prim_value(2), axis=1)
            m: R.Tensor((), dtype="float32") = R.median(x, axis=None, keepdims=False)
            ma: R.Tuple(R.Tensor((n, 1), dtype="float32"), R.Tensor((n, 1), dtype="int64")) = R.median(x, axis=[1], keepdims=True)
            m0: R.Tensor((n, 1), dtype="float32") = ma[0]
            m1: R.Tensor((n, 1), dtype="int64") = ma[1]
            gv = (q, d, q0, t, p, u, m, m0, m1)
            R.output(gv)
        return gv
