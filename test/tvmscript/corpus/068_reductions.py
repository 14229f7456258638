"""Reductions as users write them: `R.sum(x, axis=1)`, `R.mean(x, axis=[0, 2])`, `R.max(x)`,
`R.min(x, axis=-1, keepdims=True)`, `R.prod(x, 0)`, `R.sum(x, axis=[])` (reduces nothing)."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), "float32")) -> R.Tuple(
        R.Tensor((2, 4), "float32"),
        R.Tensor((3,), "float32"),
        R.Tensor((), "float32"),
        R.Tensor((2, 3, 1), "float32"),
        R.Tensor((3, 4), "float32"),
        R.Tensor((2, 3, 4), "float32"),
    ):
        s = R.sum(x, axis=1)
        m = R.mean(x, axis=[0, 2])
        mx = R.max(x)
        mn = R.min(x, axis=-1, keepdims=True)
        p = R.prod(x, 0)
        none = R.sum(x, axis=[])
        return (s, m, mx, mn, p, none)
