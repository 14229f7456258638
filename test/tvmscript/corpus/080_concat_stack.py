"""`R.concat` of a tuple along axis 0, axis 1, a negative axis and a symbolic dimension;
`R.stack` along a new first and last axis."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((2, 3), "float32"), b: R.Tensor((2, 3), "float32"), c: R.Tensor((2, 1), "float32"), d: R.Tensor(("n", 3), "float32")) -> R.Tuple(R.Tensor((4, 3), "float32"), R.Tensor((2, 7), "float32"), R.Tensor(("n + 4", 3), "float32"), R.Tensor((2, 2, 3), "float32"), R.Tensor((2, 3, 3), "float32")):
        r = R.concat((a, b))
        s = R.concat((a, c, b), axis=1)
        t = R.concat([a, d, b], axis=-2)
        u = R.stack((a, b))
        v = R.stack((a, b, a), axis=-1)
        return (r, s, t, u, v)
