# RUN: relax-opt %s | filecheck %s
# The forms users write: Python literals for shapes and prim values, nested
# calls normalised left to right, operator sugar, omitted Python-API defaults,
# match_cast, closures, string dimensions with expressions.

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n * 4",), "float32"):
        n = T.int64()
        a = R.reshape(R.add(x, R.multiply(x, x)), (n * 4,))
        b = R.strided_slice(x, axes=[0], begin=[1], end=[3])
        c = R.eye(3)
        d = x + x * x
        e = R.match_cast(R.unique(a), R.Tensor(("u",), "float32"))

        @R.function
        def twice(y: R.Tensor(("n * 4",), "float32")) -> R.Tensor(("n * 4",), "float32"):
            r = R.add(y, y)
            return r

        f = twice(a)
        return f

# CHECK:      %[[M:.*]] = relax.multiply %x, %x
# CHECK-NEXT: %[[A:.*]] = relax.add %x, %[[M]]
# CHECK-NEXT: %[[S:.*]] = relax.shape [n * 4]
# CHECK-NEXT: %a = relax.reshape %[[A]], %[[S]] : !relax.tensor<[n * 4], f32>
# CHECK:      %b = relax.strided_slice %x, %{{.*}}, %{{.*}}, %{{.*}} : !relax.tensor<[min(n, 3) - min(n, 1), 4], f32>
# CHECK:      %c = relax.eye %{{.*}}, %{{.*}}, %{{.*}} : !relax.tensor<[3, 3], f32>
# CHECK:      %[[XX:.*]] = relax.multiply %x, %x
# CHECK-NEXT: %d = relax.add %x, %[[XX]]
# CHECK:      %[[U:.*]] = relax.unique %a
# CHECK-NEXT: %e = relax.match_cast %[[U]] : !relax.tensor<[u], f32>
# CHECK:      %twice = relax.lambda (%y: !relax.tensor<[n * 4], f32>) -> !relax.tensor<[n * 4], f32> {
# CHECK:      %f = relax.invoke %twice(%a) : !relax.tensor<[n * 4], f32>
