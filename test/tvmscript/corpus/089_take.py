"""`R.take` of a 1-d tensor without an axis, along axis 0 and axis 1, with modes `"clip"`
and `"wrap"` (indices out of range) and the default `"fast"` (in range)."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(v: R.Tensor((5,), "float32"), m: R.Tensor((4, 6), "float32"), idx: R.Tensor((3,), "int64"), idx2: R.Tensor((2, 2), "int32")) -> R.Tuple(R.Tensor((3,), "float32"), R.Tensor((3, 6), "float32"), R.Tensor((4, 2, 2), "float32"), R.Tensor((4, 3), "float32"), R.Tensor((3,), "float32")):
        a = R.take(v, idx)
        b = R.take(m, idx, axis=0)
        c = R.take(m, idx2, axis=1)
        big = R.add(idx, R.const(5, "int64"))
        d = R.take(m, big, axis=1, mode="clip")
        e = R.take(v, R.subtract(idx, R.const(6, "int64")), mode="wrap")
        return (a, b, c, d, e)
