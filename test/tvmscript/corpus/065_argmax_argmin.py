"""`R.argmax` and `R.argmin`: over all elements, along an axis, a negative axis, with
`keepdims=True`; int64 results."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 5), "float32"), i: R.Tensor((3, 5), "int32")) -> R.Tuple(
        R.Tensor((), "int64"),
        R.Tensor((3,), "int64"),
        R.Tensor((1, 5), "int64"),
        R.Tensor((5,), "int64"),
        R.Tensor((3, 1), "int64"),
    ):
        a = R.argmax(x)
        b = R.argmax(x, axis=1)
        c = R.argmin(x, axis=0, keepdims=True)
        d = R.argmin(x, 0)
        e = R.argmax(i, axis=-1, keepdims=True)
        return (a, b, c, d, e)
