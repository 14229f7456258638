"""The least informative tensor annotation, `R.Tensor` with no arguments (also as
`R.Tensor()`), with a match_cast recovering a data type and rank."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor, y: R.Tensor()) -> R.Tensor:
        a = R.match_cast(x, R.Tensor(ndim=1, dtype="float32"))
        b = R.match_cast(y, R.Tensor(ndim=1, dtype="float32"))
        c = R.add(a, b)
        return c
