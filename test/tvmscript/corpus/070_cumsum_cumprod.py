"""Scans: `R.cumsum` and `R.cumprod` along an axis, of the flattened tensor (no axis),
`exclusive=True`, and with an accumulation `dtype`."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4), "float32"), i: R.Tensor((3, 4), "int32")) -> R.Tuple(
        R.Tensor((3, 4), "float32"),
        R.Tensor((12,), "float32"),
        R.Tensor((3, 4), "float32"),
        R.Tensor((3, 4), "int64"),
        R.Tensor((3, 4), "float32"),
    ):
        a = R.cumsum(x, axis=1)
        b = R.cumsum(x)
        c = R.cumsum(x, axis=0, exclusive=True)
        d = R.cumprod(i, axis=1, dtype="int64")
        e = R.cumprod(R.add(R.sigmoid(x), R.const(0.5, "float32")), axis=-1, exclusive=True)
        return (a, b, c, d, e)
