"""`R.match_cast` to a weaker type (static shape to `ndim=` only), to a stronger one (back to
static), to the same type, and on a shape and a tuple value."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        weak = R.match_cast(x, R.Tensor(ndim=2, dtype="float32"))
        weaker = R.match_cast(weak, R.Tensor(dtype="float32"))
        strong = R.match_cast(weaker, R.Tensor((2, 3), "float32"))
        same = R.match_cast(strong, R.Tensor((2, 3), "float32"))
        s = R.shape_of(same)
        s2 = R.match_cast(s, R.Shape([2, 3]))
        t = (same, x)
        t2 = R.match_cast(
            t, R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor(ndim=2, dtype="float32"))
        )
        out = R.add(t2[0], strong)
        return out
