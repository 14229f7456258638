// RUN: relax-opt %s --emit tvmscript | filecheck %s

// The dialect printed as TVMScript, as TVM 0.25 prints it: every binding
// annotated with its StructInfo, symbolic variables declared first, unnamed
// leaves (shapes, prim values, scalar constants) inline, call_tir kernels as
// T.prim_func stubs with their MLIR text in the module attributes.

// CHECK:      # from tvm.script import ir as I
// CHECK-NEXT: # from tvm.script import tirx as T
// CHECK-NEXT: # from tvm.script import relax as R
// CHECK-EMPTY:
// CHECK-NEXT: @I.ir_module
// CHECK-NEXT: class Module:
// CHECK-NEXT:     I.module_attrs({"relax_xdsl.dps_kernels": "func.func @double(%a: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {\n  func.return %out : tensor<?xf32>\n}\n"})

// CHECK-NEXT:     @R.function(pure=False)
// CHECK-NEXT:     def main(x: R.Tensor(("n", 4), dtype="float32"), c: R.Prim("bool"), o: R.Object) -> R.Tensor(("n * 4",), dtype="float32"):
// CHECK-NEXT:         n = T.int64()
// CHECK-NEXT:         m = T.int64()
// CHECK-NEXT:         cls = Module
relax.function impure @main(%x: !relax.tensor<[n, 4], f32>, %c: !relax.prim<bool>, %o: !relax.object) -> !relax.tensor<[n * 4], f32> {
  // CHECK-NEXT:       r: R.Tensor((n * 4,), dtype="float32") = R.reshape(x, R.shape([n * 4]))
  %0 = relax.shape [n * 4]
  %r = relax.reshape %x, %0
  // the output of a dataflow block is the variable bound in the block
  // CHECK-NEXT:       with R.dataflow():
  // CHECK-NEXT:           lv: R.Tensor((n * 4,), dtype="float32") = R.clip(r, R.prim_value(T.float32(0.0)), R.prim_value(T.float32(6.0)))
  // CHECK-NEXT:           gv: R.Tensor((n * 4,), dtype="float32") = R.multiply(lv, R.const(0.5, "float32"))
  // CHECK-NEXT:           R.output(gv)
  %y = relax.dataflow {
    %1 = relax.prim_value 0.0 : !relax.prim<f32, 0.0>
    %2 = relax.prim_value 6.0 : !relax.prim<f32, 6.0>
    %lv = relax.clip %r, %1, %2
    %3 = relax.constant dense<[], f32, 0.5>
    %gv = relax.multiply %lv, %3
    relax.output %gv
  }
  // CHECK-NEXT:       k: R.Tensor((m,), dtype="float32") = R.match_cast(o, R.Tensor((m,), dtype="float32"))
  %k = relax.match_cast %o : !relax.tensor<[m], f32>
  // CHECK-NEXT:       if c:
  // CHECK-NEXT:           t: R.Tensor((n * 4,), dtype="float32") = R.call_tir(cls.double, (gv,), out_sinfo=R.Tensor((n * 4,), dtype="float32"))
  // CHECK-NEXT:           z: R.Tensor((n * 4,), dtype="float32") = t
  // CHECK-NEXT:       else:
  // CHECK-NEXT:           z: R.Tensor((n * 4,), dtype="float32") = gv
  %z = relax.if %c {
    %t = relax.call_tir @double(%y) : !relax.tensor<[n * 4], f32>
    relax.yield %t
  } else {
    relax.yield %y
  }
  // CHECK-NEXT:       @R.function
  // CHECK-NEXT:       def twice(v: R.Tensor((m,), dtype="float32")) -> R.Tensor((m,), dtype="float32"):
  // CHECK-NEXT:           w: R.Tensor((m,), dtype="float32") = R.add(v, v)
  // CHECK-NEXT:           return w
  // CHECK-EMPTY:
  %twice = relax.lambda (%v: !relax.tensor<[m], f32>) -> !relax.tensor<[m], f32> {
    %w = relax.add %v, %v
    relax.return %w
  }
  // CHECK-NEXT:       k2: R.Tensor((m,), dtype="float32") = twice(k)
  // CHECK-NEXT:       pair: R.Tuple(R.Tensor((n * 4,), dtype="float32"), R.Tensor((m,), dtype="float32")) = z, k2
  // CHECK-NEXT:       first: R.Tensor((n * 4,), dtype="float32") = pair[0]
  // CHECK-NEXT:       s: R.Tensor((1,), dtype="float32") = R.sum(k2, axis=[0], keepdims=True)
  // CHECK-NEXT:       R.print(s, format=R.str("s = {}"))
  // CHECK-NEXT:       return first
  %k2 = relax.invoke %twice(%k)
  %pair = relax.tuple(%z, %k2)
  %first = relax.tuple_get_item %pair[0]
  %s = relax.sum %k2 {axis = [0], keepdims = true}
  %p = relax.print %s {format = "s = {}"}
  relax.return %first
}

// CHECK-EMPTY:
// CHECK-NEXT:     @T.prim_func(private=True)
// CHECK-NEXT:     def double(a: T.handle, out: T.handle):
// CHECK-NEXT:         d = T.int64()
// CHECK-NEXT:         A = T.match_buffer(a, (d,), "float32")
// CHECK-NEXT:         d_1 = T.int64()
// CHECK-NEXT:         OUT = T.match_buffer(out, (d_1,), "float32")
// CHECK-NEXT:         T.evaluate(0)
func.func @double(%a: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}
