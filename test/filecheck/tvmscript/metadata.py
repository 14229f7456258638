# RUN: relax-opt %s --emit tvmscript --metadata-out %t.npz | filecheck %s --check-prefix=EMIT
# RUN: relax-opt %s --emit tvmscript --metadata-out %t.npz > %t.py
# RUN: relax-opt %t.py --metadata %t.npz | filecheck %s --check-prefix=READ
# RUN: not relax-opt %t.py 2>&1 | filecheck %s --check-prefix=MISSING
# Non-scalar constants travel as metadata: printed as references, saved to an
# .npz keyed by index, and supplied back with --metadata.

from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
        y = R.add(x, R.const([[1.0, 2.0], [3.0, 4.0]], "float32"))
        z = R.multiply(y, R.const(0.5, "float32"))
        return z

# EMIT:      y: R.Tensor((2, 2), dtype="float32") = R.add(x, metadata["relax.expr.Constant"][0])
# EMIT:      z: R.Tensor((2, 2), dtype="float32") = R.multiply(y, R.const(0.5, "float32"))

# READ:      relax.constant dense<[2, 2], f32, [1.0, 2.0, 3.0, 4.0]>
# READ:      %y = relax.add %x, %{{.*}} : !relax.tensor<[2, 2], f32>

# MISSING:   error: metadata constant 0 is not supplied (0 given; pass them as an .npz with --metadata)
