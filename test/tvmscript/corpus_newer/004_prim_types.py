"""Newer (TVM 0.27.dev) syntax: prim types annotated as TIR types (`T.int64`, `T.float32`,
`T.bool`) where 0.25 writes `R.Prim("int64")`, arithmetic on a prim parameter without
`R.prim_value` (`plus_one: T.int64 = k + 1`), a prim value returned bare (`return 1`), and
`R.Tuple(T.float32, R.Any, ...)` / `R.Callable((T.int64,), ...)`. `R.Prim(value=...)` no longer
exists there. Not checkable with TVM 0.25."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def one() -> T.int64:
        return 1

    @R.function
    def main(k: T.int64, f: T.float32, flag: T.bool, o: R.Any, g: R.Callable((T.int64,), T.int64, True)) -> R.Tuple(T.int64, T.float32, R.Any):
        plus_one: T.int64 = k + 1
        alias: T.int64 = plus_one
        r: T.int64 = g(alias)
        return (r, f, o)
