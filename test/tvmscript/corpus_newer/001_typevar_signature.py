"""Newer (TVM 0.27.dev) syntax: symbolic dimensions declared at module level with
`n = TypeVar("n")` (commit bb9bc20a82, "Support PEP 695 symbolic variables"), used bare in the
signature (`R.Tensor((n, 4), ...)`), compound dimensions quoted (`"n * 4"`), and no
`n = T.int64()` in the body. Not checkable with TVM 0.25."""
# ruff: noqa
# run: main n=3
from typing import TypeVar

from tvm.script import ir as I, relax as R, tirx as T

n = TypeVar("n")


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((n, 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((n, 4), dtype="float32") = R.exp(x)
            gv: R.Tensor((n * 4,), dtype="float32") = R.reshape(lv, R.shape([n * 4]))
            R.output(gv)
        return gv
