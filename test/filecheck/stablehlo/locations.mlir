// JAX's debug locations (aliases defined after their uses, call sites, ranges)
// are ignored; diagnostics point into the text.
// RUN: relax-opt %s | filecheck %s
// RUN: sed -e 's/stablehlo.abs/stablehlo.popcnt/' %s | not relax-opt -f stablehlo 2>&1 | filecheck %s --check-prefix=ERROR

#loc = loc(unknown)
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> loc("x")) -> (tensor<2xf32> {jax.result_info = "result"}) {
    // CHECK: %0 = relax.abs %arg0 : !relax.tensor<[2], f32>
    // ERROR: <stdin>:[[# @LINE + 1]]:5: error: stablehlo.popcnt: has no Relax counterpart
    %0 = stablehlo.abs %arg0 : tensor<2xf32> loc(#loc3)
    return %0 : tensor<2xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/f.py":3:35 to :44)
#loc2 = loc("f"(#loc1))
#loc3 = loc(callsite(#loc2 at #loc1))
