# RUN: relax-opt %s --emit tvmscript | filecheck %s --check-prefix=PY
# RUN: relax-opt %s | filecheck %s --check-prefix=MLIR
# RUN: relax-opt %s | relax-opt - --emit tvmscript | filecheck %s --check-prefix=PY
# RUN: python -c "import numpy as np; np.savez('%t.npz', x=np.array([[1, 2], [3, 4]], 'float32'))"
# RUN: relax-run %s --inputs %t.npz --backend all | filecheck %s --check-prefix=OUT
# A variable bound to a variable (`weak: R.Object = x`, `z = y`) is a binding
# of its own, relax.alias, that keeps its name. As in TVM 0.25, its StructInfo
# is the value's: the annotation is checked (it must not contradict it), then
# dropped, so later operators see the tensor (TVM prints the same text).

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
        weak: R.Object = x
        rank: R.Tensor(ndim=2) = weak
        y = R.add(rank, x)
        with R.dataflow():
            z = y
            w = R.multiply(z, z)
            out = w
            R.output(out)
        return out

# MLIR:      %weak = relax.alias %x : !relax.tensor<[2, 2], f32>
# MLIR-NEXT: %rank = relax.alias %weak : !relax.tensor<[2, 2], f32>
# MLIR-NEXT: %y = relax.add %rank, %x : !relax.tensor<[2, 2], f32>
# MLIR-NEXT: %out = relax.dataflow {
# MLIR-NEXT:   %z = relax.alias %y : !relax.tensor<[2, 2], f32>
# MLIR-NEXT:   %w = relax.multiply %z, %z : !relax.tensor<[2, 2], f32>
# MLIR-NEXT:   %out_1 = relax.alias %w : !relax.tensor<[2, 2], f32>
# MLIR-NEXT:   relax.output %out_1

# PY:      weak: R.Tensor((2, 2), dtype="float32") = x
# PY-NEXT: rank: R.Tensor((2, 2), dtype="float32") = weak
# PY-NEXT: y: R.Tensor((2, 2), dtype="float32") = R.add(rank, x)
# PY-NEXT: with R.dataflow():
# PY-NEXT:     z: R.Tensor((2, 2), dtype="float32") = y
# PY-NEXT:     w: R.Tensor((2, 2), dtype="float32") = R.multiply(z, z)
# PY-NEXT:     out: R.Tensor((2, 2), dtype="float32") = w
# PY-NEXT:     R.output(out)
# PY-NEXT: return out

# OUT: {{\[\[}} 4. 16.]
# OUT: [36. 64.]]
# OUT: lowered: {{.*}} agrees with reference
# OUT: mlir: {{.*}} agrees with reference
