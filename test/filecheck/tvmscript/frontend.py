# RUN: relax-opt %s | filecheck %s
# TVMScript as TVM 0.25 prints it, read into the dialect: names, annotations,
# symbolic variables, dataflow blocks, leaves bound as values, calls.

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            a: R.Tensor((n, 4), dtype="float32") = R.add(x, x)
            b: R.Tensor((n, 1), dtype="float32") = R.sum(a, axis=[1], keepdims=True)
            c: R.Tensor((n * 4,), dtype="float32") = R.reshape(a, R.shape([n * 4]))
            e: R.Tensor((n, 4), dtype="float32") = R.clip(a, R.prim_value(0), R.prim_value(6))
            i: R.Tensor((n, 4), dtype="float32") = R.matmul(x, w, out_dtype="float32")
            j: R.Tuple(R.Tensor((n, 2), dtype="float32"), R.Tensor((n, 2), dtype="float32")) = R.split(a, indices_or_sections=2, axis=1)
            k: R.Tensor((n, 2), dtype="float32") = j[0]
            R.output(a, k)
        y: R.Tensor((n, 4), dtype="float32") = R.call_pure_packed("f", a, sinfo_args=(R.Tensor((n, 4), dtype="float32"),))
        z: R.Tensor((n, 4), dtype="float32") = cls.helper(y)
        return z

    @R.function(private=True)
    def helper(x: R.Tensor(("m", 4), dtype="float32")) -> R.Tensor(("m", 4), dtype="float32"):
        if R.const(True, "bool"):
            y = R.add(x, x)
        else:
            y = R.multiply(x, x)
        return y

# CHECK:      relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[n, 4], f32> {
# CHECK-NEXT:   %a, %k = relax.dataflow {
# CHECK-NEXT:     %a_1 = relax.add %x, %x : !relax.tensor<[n, 4], f32>
# CHECK-NEXT:     %b = relax.sum %a_1 {axis = [1], keepdims = true} : !relax.tensor<[n, 1], f32>
# CHECK-NEXT:     %{{.*}} = relax.shape [n * 4] : !relax.shape<[n * 4]>
# CHECK-NEXT:     %c = relax.reshape %a_1, %{{.*}} : !relax.tensor<[n * 4], f32>
# CHECK-NEXT:     %[[LO:.*]] = relax.prim_value 0 : !relax.prim<i64, 0>
# CHECK-NEXT:     %[[HI:.*]] = relax.prim_value 6 : !relax.prim<i64, 6>
# CHECK-NEXT:     %e = relax.clip %a_1, %[[LO]], %[[HI]] : !relax.tensor<[n, 4], f32>
# CHECK-NEXT:     %i = relax.matmul %x, %w {out_dtype = f32} : !relax.tensor<[n, 4], f32>
# CHECK-NEXT:     %j = relax.split %a_1 {indices_or_sections = 2, axis = 1} : !relax.tuple<tensor<[n, 2], f32>, tensor<[n, 2], f32>>
# CHECK-NEXT:     %k_1 = relax.tuple_get_item %j[0] : !relax.tensor<[n, 2], f32>
# CHECK-NEXT:     relax.output %a_1, %k_1
# CHECK-NEXT:   }
# CHECK-NEXT:   %y = relax.call_pure_packed "f"(%a) : !relax.tensor<[n, 4], f32>
# CHECK-NEXT:   %z = relax.call @helper(%y) : !relax.tensor<[n, 4], f32>
# CHECK-NEXT:   relax.return %z
# CHECK:      relax.function private @helper(%x: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32> {
# CHECK-NEXT:   %{{.*}} = relax.constant dense<[], bool, true> : !relax.tensor<[], bool>
# CHECK-NEXT:   %y = relax.if %{{.*}} : !relax.tensor<[m, 4], f32> {
# CHECK-NEXT:     %{{.*}} = relax.add %x, %x : !relax.tensor<[m, 4], f32>
# CHECK:        } else {
# CHECK-NEXT:     %{{.*}} = relax.multiply %x, %x : !relax.tensor<[m, 4], f32>
