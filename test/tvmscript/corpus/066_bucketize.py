"""`R.bucketize(input, boundaries)` with sorted boundaries made by `R.sort`, with the
defaults, `right=True` and `out_int32=True`, on float32 data. No run spec: TVM 0.25's legalization of
`bucketize` fails on float data (a right shift of a float); 067 runs it on integers."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 6), "float32"), b: R.Tensor((5,), "float32")) -> R.Tuple(
        R.Tensor((2, 6), "int64"), R.Tensor((2, 6), "int32"), R.Tensor((2, 6), "int64")
    ):
        bounds = R.sort(b)
        lo = R.bucketize(x, bounds)
        hi = R.bucketize(x, bounds, out_int32=True, right=True)
        exact = R.bucketize(bounds, bounds, right=True)
        rounded = R.bucketize(R.round(x), R.round(bounds), right=False)
        return (lo, hi, rounded)
