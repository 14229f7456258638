"""Nested `if`s on a 0-d bool tensor parameter: the inner `if` inside the `then` branch,
tuple values joined from the branches."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), "bool"), x: R.Tensor((3,), "float32")) -> R.Tuple(
        R.Tensor((3,), "float32"), R.Tensor((3,), "float32")
    ):
        if c:
            m = R.max(x)
            positive = R.greater(m, R.const(0.0, "float32"))
            if positive:
                u = R.sqrt(R.abs(x))
            else:
                u = R.square(x)
            v = (u, x)
        else:
            v = (x, R.negative(x))
        return v
