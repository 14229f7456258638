"""Newer (TVM 0.27.dev) syntax: `out_ty=` where 0.25 writes `out_sinfo=` in
`R.call_dps_packed` (one output and a list of outputs), with TypeVar-declared symbolic
dimensions shared by two parameters. Not checkable with TVM 0.25."""
# ruff: noqa
from typing import TypeVar

from tvm.script import ir as I, relax as R, tirx as T

m = TypeVar("m")
n = TypeVar("n")


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((m, n), dtype="float32"), y: R.Tensor((m, n), dtype="float32")) -> R.Tuple(R.Tensor((m, n), dtype="float32"), R.Tensor((m,), dtype="float32")):
        with R.dataflow():
            s = R.call_dps_packed("my_ext.add", (x, y), out_ty=R.Tensor((m, n), dtype="float32"))
            pair = R.call_dps_packed("my_ext.norms", (s,), out_ty=[R.Tensor((m, n), dtype="float32"), R.Tensor((m,), dtype="float32")])
            a: R.Tensor((m, n), dtype="float32") = pair[0]
            b: R.Tensor((m,), dtype="float32") = pair[1]
            R.output(a, b)
        return (a, b)
