"""`if`/`else` on an `R.Prim("bool")` parameter, with a branch that returns directly from the
function and branch-local annotations."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(flag: R.Prim("bool"), x: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
        if flag:
            y: R.Tensor((2, 2), "float32") = R.add(x, x)
            r = y
        else:
            z: R.Tensor((2, 2), "float32") = R.subtract(x, x)
            r = z
        return r
