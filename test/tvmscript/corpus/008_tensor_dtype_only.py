"""Tensor annotations with only a data type, positional (`R.Tensor("float32")`) and keyword
(`R.Tensor(dtype="float32")`): unknown rank."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor("float32"), y: R.Tensor(dtype="float32")) -> R.Tensor(dtype="float32"):
        z = R.multiply(x, y)
        a = R.abs(z)
        return a
