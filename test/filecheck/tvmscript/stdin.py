"""TVMScript on standard input is recognised without -f, even when a module
docstring comes first."""

# RUN: relax-opt < %s | filecheck %s
# RUN: cat %s | relax-opt - | filecheck %s

from tvm.script import relax as R


@R.function
def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
    y = R.add(x, x)
    return y


# CHECK:      relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
# CHECK-NEXT:   %y = relax.add %x, %x : !relax.tensor<[2], f32>
# CHECK-NEXT:   relax.return %y
