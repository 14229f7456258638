# error: 10:5: global_symbol "other" differs from the function name @main
# R.func_attr's global_symbol is the function's linkage, checked as in the MLIR form.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"global_symbol": "other"})
        return x
# tvm: rejects
