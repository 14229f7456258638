"""`R.eye(n)`, `R.eye(n, m, k)` with a diagonal offset and a dtype, `R.eye_like`, and
`R.arange` with one, two and three bounds, int and float."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4), "float32")) -> R.Tuple(R.Tensor((3, 3), "float32"), R.Tensor((3, 5), "int32"), R.Tensor((3, 4), "float32"), R.Tensor((5,), "int64"), R.Tensor((4,), "int64"), R.Tensor((4,), "float32")):
        a = R.eye(3)
        b = R.eye(3, 5, k=1, dtype="int32")
        c = R.eye_like(x, k=-1)
        d = R.arange(5)
        e = R.arange(1, 9, 2)
        f = R.arange(0.0, 1.0, 0.25, dtype="float32")
        return (a, b, c, d, e, f)
