"""`R.ewise_fma` on float16 and 0-d tensors and feeding a reduction, in the printed form.
No run spec: TVM 0.25 has no legalization for `ewise_fma`."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((4,), dtype="float16"), s: R.Tensor((), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float16"), R.Tensor((), dtype="float32")):
        lv: R.Tensor((4,), dtype="float16") = R.ewise_fma(a, a, a)
        lv1: R.Tensor((), dtype="float32") = R.ewise_fma(s, s, R.const(1.0, "float32"))
        lv2: R.Tensor((), dtype="float16") = R.sum(lv, axis=None, keepdims=False)
        return (lv, lv1)
