"""`R.broadcast_to` (static and symbolic targets), `R.tile` (repeats shorter and longer than
the rank), `R.repeat` along an axis and of the flattened tensor."""
# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3), "float32"), y: R.Tensor(("n", 1), "float32")) -> R.Tuple(R.Tensor((4, 3), "float32"), R.Tensor(("n", 5), "float32"), R.Tensor((1, 6), "float32"), R.Tensor((2, 2, 6), "float32"), R.Tensor((3, 3), "float32"), R.Tensor((6,), "float32")):
        n = T.int64()
        a = R.broadcast_to(x, (4, 3))
        b = R.broadcast_to(y, R.shape([n, 5]))
        c = R.tile(x, 2)
        d = R.tile(x, [2, 2, 2])
        e = R.repeat(x, 3, axis=0)
        f = R.repeat(x, repeats=2)
        return (a, b, c, d, e, f)
