"""Tuple values: construction, `t[0]` indexing (also of a tuple parameter), nested tuples,
a tuple returned from a call, and a single-element tuple."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def pair(a: R.Tensor((3,), "float32")) -> R.Tuple(
        R.Tensor((3,), "float32"), R.Tensor((3,), "float32")
    ):
        b = R.negative(a)
        return (a, b)

    @R.function
    def main(x: R.Tensor((3,), "float32"), y: R.Tensor((3,), "float32")) -> R.Tuple(
        R.Tensor((3,), "float32"),
        R.Tuple(
            R.Tensor((3,), "float32"),
        ),
    ):
        cls = Module
        t = cls.pair(x)
        first = t[0]
        second = t[1]
        nested = ((first, second), (y,))
        inner = nested[0]
        again = inner[1]
        z = R.add(again, nested[1][0])
        single = (z,)
        return (first, single)
