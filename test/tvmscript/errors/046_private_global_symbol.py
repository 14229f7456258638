# error: 15:9: @helper is private, so it may not have a global_symbol
# A private function has no linkage; TVM rejects the attribute the same way.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x

    @R.function(private=True)
    def helper(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"global_symbol": "helper"})
        return x
# tvm: rejects
