"""Tensor annotations that know only the rank: `R.Tensor(ndim=2, dtype="float32")`, and
`R.Tensor(dtype=..., ndim=...)` on the result."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(ndim=2, dtype="float32"), y: R.Tensor(dtype="float32", ndim=2)
    ) -> R.Tensor(dtype="float32", ndim=2):
        z = R.add(x, y)
        e = R.exp(z)
        return e
