"""Set operators in the form TVM prints: `R.unique(x, R.prim_value(1), R.prim_value(0), ...)`
with its result type annotated as unknown-length, then match_cast to a static length that the
deterministic input cannot contradict (a tensor of ones has one unique value)."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((1,), dtype="float32"), R.Tensor((1, 4), dtype="int64")):
        lv: R.Tensor((4,), dtype="float32") = R.ones_like(x, dtype="void")
        lv1: R.Tensor(dtype="float32", ndim=1) = R.unique(lv, R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(0))
        lv2: R.Tensor((1,), dtype="float32") = R.match_cast(lv1, R.Tensor((1,), dtype="float32"))
        lv3: R.Tensor(dtype="int64", ndim=2) = R.nonzero(lv)
        lv4: R.Tensor((1, 4), dtype="int64") = R.match_cast(lv3, R.Tensor((1, 4), dtype="int64"))
        return (lv2, lv4)
