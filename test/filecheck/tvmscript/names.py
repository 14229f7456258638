# RUN: relax-opt %s --emit tvmscript | filecheck %s --check-prefix=PY
# RUN: relax-opt %s | filecheck %s --check-prefix=MLIR
# RUN: relax-opt %s | relax-opt - --emit tvmscript | filecheck %s --check-prefix=PY
# RUN: python -c "import numpy as np; np.savez('%t.npz', w_12=np.array([5, 7], 'float32'), w_18=np.array([1, 2], 'float32'))"
# RUN: relax-run %s --entry difference --inputs %t.npz | filecheck %s --check-prefix=OUT
# RUN: relax-opt %s | relax-run - --entry difference --inputs %t.npz | filecheck %s --check-prefix=OUT
# Every source name is kept exactly, read from TVMScript and printed back,
# directly and through the MLIR text: names ending in _<digits>, leaf values the
# source binds (inline only what it writes inline, a returned tuple too), the
# result of an if assigned in both branches (no alias); a name bound twice is
# told apart by a suffix no other name of the function has.

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("m", "n"), "float32"), w_12: R.Tensor(("n",), "float32"), w_18: R.Tensor(("n",), "float32"), c: R.Prim("bool")):
        m = T.int64()
        n = T.int64()
        y = R.prim_value(n * 2)
        s = R.shape([m, n])
        a = R.add(x, w_12)
        b = R.add(a, w_18)
        t = (a, b)
        r0 = R.reshape(a, s)
        r1 = R.reshape(b, R.shape([m, n]))
        if c:
            r = R.add(a, b)
        else:
            r = R.multiply(a, b)
        return (r, t, y, r0, r1)

    @R.function
    def rebound(a: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        a = R.add(a, a)
        a = R.multiply(a, a)
        a_1 = R.subtract(a, a)
        return a_1

    @R.function
    def difference(w_12: R.Tensor((2,), "float32"), w_18: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        d = R.subtract(w_12, w_18)
        return d

# PY:      def main(x: R.Tensor(("m", "n"), dtype="float32"), w_12: R.Tensor(("n",), dtype="float32"), w_18: R.Tensor(("n",), dtype="float32"), c: R.Prim("bool"))
# PY-NEXT:     m = T.int64()
# PY-NEXT:     n = T.int64()
# PY-NEXT:     y: R.Prim(value=n * 2) = R.prim_value(n * 2)
# PY-NEXT:     s: R.Shape([m, n]) = R.shape([m, n])
# PY-NEXT:     a: R.Tensor((m, n), dtype="float32") = R.add(x, w_12)
# PY-NEXT:     b: R.Tensor((m, n), dtype="float32") = R.add(a, w_18)
# PY-NEXT:     t: R.Tuple(R.Tensor((m, n), dtype="float32"), R.Tensor((m, n), dtype="float32")) = a, b
# PY-NEXT:     r0: R.Tensor((m, n), dtype="float32") = R.reshape(a, s)
# PY-NEXT:     r1: R.Tensor((m, n), dtype="float32") = R.reshape(b, R.shape([m, n]))
# PY-NEXT:     if c:
# PY-NEXT:         r: R.Tensor((m, n), dtype="float32") = R.add(a, b)
# PY-NEXT:     else:
# PY-NEXT:         r: R.Tensor((m, n), dtype="float32") = R.multiply(a, b)
# PY-NEXT:     return (r, t, y, r0, r1)
# PY:      def rebound(a: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
# PY-NEXT:     a_2: R.Tensor((2,), dtype="float32") = R.add(a, a)
# PY-NEXT:     a_3: R.Tensor((2,), dtype="float32") = R.multiply(a_2, a_2)
# PY-NEXT:     a_1: R.Tensor((2,), dtype="float32") = R.subtract(a_3, a_3)
# PY-NEXT:     return a_1
# PY:      def difference(w_12: R.Tensor((2,), dtype="float32"), w_18: R.Tensor((2,), dtype="float32"))

# MLIR:      relax.function @main(%x: !relax.tensor<[m, n], f32>, %w_12: !relax.tensor<[n], f32>, %w_18: !relax.tensor<[n], f32>, %c: !relax.prim<bool>)
# MLIR-NEXT:   %y = relax.prim_value n * 2
# MLIR-NEXT:   %s = relax.shape [m, n]
# MLIR-NEXT:   %a = relax.add %x, %w_12
# MLIR-NEXT:   %b = relax.add %a, %w_18
# MLIR-NEXT:   %t = relax.tuple(%a, %b)
# MLIR-NEXT:   %r0 = relax.reshape %a, %s
# MLIR-NEXT:   %0 = relax.shape [m, n]
# MLIR-NEXT:   %r1 = relax.reshape %b, %0
# MLIR-NEXT:   %r = relax.if %c
# MLIR-NEXT:     %r_1 = relax.add %a, %b
# MLIR-NEXT:     relax.yield %r_1
# MLIR-NEXT:   } else {
# MLIR-NEXT:     %r_2 = relax.multiply %a, %b
# MLIR-NEXT:     relax.yield %r_2
# MLIR-NEXT:   }
# MLIR-NEXT:   %1 = relax.tuple(%r, %t, %y, %r0, %r1)
# MLIR-NEXT:   relax.return %1
# MLIR:      relax.function @rebound(%a: !relax.tensor<[2], f32>)
# MLIR-NEXT:   %a_2 = relax.add %a, %a
# MLIR-NEXT:   %a_3 = relax.multiply %a_2, %a_2
# MLIR-NEXT:   %a_1 = relax.subtract %a_3, %a_3
# MLIR-NEXT:   relax.return %a_1

# OUT: @difference(%w_12: tensor<[2], f32>, %w_18: tensor<[2], f32>)
# OUT-NEXT: out0: tensor of shape [2] and dtype f32
# OUT-NEXT:   [4. 5.]
