"""`R.Object` annotations: a parameter of unknown kind, a binding weakened to `R.Object`, and a
match_cast back to a tensor. (TVM 0.25 gives `weak: R.Object = x` the type of `x`: an
annotation on a variable-to-variable binding is dropped.)"""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(o: R.Object, x: R.Tensor((2, 2), "float32")) -> R.Tuple(
        R.Object, R.Tensor((2, 2), "float32")
    ):
        weak: R.Object = x
        back = R.match_cast(weak, R.Tensor((2, 2), "float32"))
        y = R.add(back, x)
        return (o, y)
