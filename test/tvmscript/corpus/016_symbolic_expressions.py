"""Arithmetic on symbolic dimensions: `n * 4`, `n + 1`, `T.floordiv(n, 2)`, `T.min(n, 3)`
in shapes, annotations and reshape targets."""

# ruff: noqa
# run: main n=6
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tuple(
        R.Tensor(("n * 4",), "float32"), R.Tensor(("n + 1", 4), "float32")
    ):
        n = T.int64()
        flat: R.Tensor((n * 4,), "float32") = R.reshape(x, (n * 4,))
        pad: R.Tensor((n + 1, 4), "float32") = R.concat((x, R.zeros((1, 4), "float32")), axis=0)
        halves = R.reshape(x, (T.floordiv(n, 2), 8))
        h: R.Tensor((T.floordiv(n, 2), 8), "float32") = halves
        few = R.strided_slice(x, axes=[0], begin=[0], end=[3])
        f: R.Tensor((T.min(n, 3), 4), "float32") = few
        return (flat, pad)
