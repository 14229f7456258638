"""Logical operators on bool tensors: `R.logical_and`, `R.logical_or`, `R.logical_xor`, with
broadcasting of a (3,) operand against (2, 3)."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(p: R.Tensor((2, 3), "bool"), q: R.Tensor((3,), "bool")) -> R.Tuple(
        R.Tensor((2, 3), "bool"), R.Tensor((2, 3), "bool"), R.Tensor((2, 3), "bool")
    ):
        a = R.logical_and(p, q)
        o = R.logical_or(p, q)
        x = R.logical_xor(a, o)
        return (a, o, x)
