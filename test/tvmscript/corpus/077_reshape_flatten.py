"""`R.reshape` with the target as a tuple (`(3, 4)`), a list, with `-1` and `0` resolved from
the input, with a symbolic target `(n * 4,)`; `R.flatten` of a 3-d and a 0-d tensor."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 6), "float32"), y: R.Tensor(("n", 4), "float32"), z: R.Tensor((2, 3, 2), "int32"), s: R.Tensor((), "float32")) -> R.Tuple(R.Tensor((3, 4), "float32"), R.Tensor((4, 3), "float32"), R.Tensor((2, 2, 3), "float32"), R.Tensor(("n * 4",), "float32"), R.Tensor((12,), "int32"), R.Tensor((1,), "float32")):
        n = T.int64()
        a = R.reshape(x, (3, 4))
        b = R.reshape(x, [4, -1])
        c = R.reshape(x, (0, 2, 3))
        d = R.reshape(y, (n * 4,))
        e = R.flatten(z)
        f = R.flatten(s)
        return (a, b, c, d, e, f)
