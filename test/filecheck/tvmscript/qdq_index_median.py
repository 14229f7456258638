# RUN: relax-opt %s | filecheck %s
# RUN: relax-opt %s --emit tvmscript | filecheck %s --check-prefix=PRINT
# Quantization, advanced indexing, slice scatter and median as users write
# them (positional attributes in TVM's Python order, omitted defaults, Python
# integers for slice bounds, an int axis for median) and as TVM prints them
# back (every attribute, TVM's keyword order, `R.prim_value` bounds).

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), s: R.Tensor((4,), "float32"), z: R.Tensor((4,), "uint8"), i: R.Tensor((2,), "int64"), v: R.Tensor((2,), "float32"), src: R.Tensor(("n", 2), "float32")):
        n = T.int64()
        q = R.quantize(x, s, z, 1, "uint8")
        d = R.dequantize(q, s, z, axis=-1)
        t = R.index_tensor(x, [i])
        p = R.index_put(x, (i, i), v)
        u = R.slice_scatter(x, src, 0, 4, 2, axis=1)
        m = R.median(x, 0)
        return (q, d, t, p, u, m)

# CHECK: %q = relax.quantize %x, %s, %z {axis = 1, out_dtype = ui8} : !relax.tensor<[n, 4], ui8>
# CHECK: %d = relax.dequantize %q, %s, %z {axis = -1} : !relax.tensor<[n, 4], f32>
# CHECK: %t = relax.index_tensor %x, %{{.*}} : !relax.tensor<[2, 4], f32>
# CHECK: %p = relax.index_put %x, %{{.*}}, %v : !relax.tensor<[n, 4], f32>
# CHECK: %u = relax.slice_scatter %x, %src, %{{.*}}, %{{.*}}, %{{.*}} {axis = 1} : !relax.tensor<[n, 4], f32>
# CHECK: %m = relax.median %x {axis = [0]} : !relax.tuple<tensor<[4], f32>, tensor<[4], i64>>

# PRINT: q: R.Tensor((n, 4), dtype="uint8") = R.quantize(x, s, z, out_dtype="uint8", axis=1)
# PRINT: d: R.Tensor((n, 4), dtype="float32") = R.dequantize(q, s, z, out_dtype="float32", axis=-1)
# PRINT: t: R.Tensor((2, 4), dtype="float32") = R.index_tensor(x, (i,))
# PRINT: p: R.Tensor((n, 4), dtype="float32") = R.index_put(x, (i, i), v, accumulate=False)
# PRINT: u: R.Tensor((n, 4), dtype="float32") = R.slice_scatter(x, src, R.prim_value(0), R.prim_value(4), R.prim_value(2), axis=1)
# PRINT: m: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="int64")) = R.median(x, axis=[0], keepdims=False)
