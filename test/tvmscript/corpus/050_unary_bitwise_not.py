"""`R.bitwise_not` on int32 and int8 tensors and `R.logical_not` on a bool tensor."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor((4,), "int32"), b: R.Tensor((2, 2), "int8"), c: R.Tensor((3,), "bool")
    ) -> R.Tuple(R.Tensor((4,), "int32"), R.Tensor((2, 2), "int8"), R.Tensor((3,), "bool")):
        na = R.bitwise_not(a)
        nb = R.bitwise_not(b)
        nc = R.logical_not(c)
        return (na, nb, nc)
