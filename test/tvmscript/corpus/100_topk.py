"""`R.topk`: the default (k=1, both values and indices), k largest along an axis, k smallest
(`largest=False`), values only (`ret_type="values"`), indices only with `dtype="int64"`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 6), "float32")) -> R.Tuple(R.Tensor((3, 1), "float32"), R.Tensor((3, 2), "int32"), R.Tensor((2, 6), "float32"), R.Tensor((3, 3), "float32"), R.Tensor((3, 4), "int64")):
        both = R.topk(x)
        v1 = both[0]
        pair = R.topk(x, k=2, axis=-1)
        i2 = pair[1]
        small = R.topk(x, 2, axis=0, ret_type="both", largest=False)
        s = small[0]
        vals = R.topk(x, k=3, ret_type="values")
        idx = R.topk(x, k=4, ret_type="indices", dtype="int64")
        return (v1, i2, s, vals, idx)
