"""`R.ewise_fma(x1, x2, x3)`: element-wise multiply-add of three tensors of one static shape,
float32 and int32. No run spec: TVM 0.25 has no
legalization for `ewise_fma`."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor((2, 3), "float32"),
        b: R.Tensor((2, 3), "float32"),
        c: R.Tensor((2, 3), "float32"),
        i: R.Tensor((4,), "int32"),
    ) -> R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((4,), "int32")):
        f = R.ewise_fma(a, b, c)
        g = R.ewise_fma(i, i, i)
        return (f, g)
