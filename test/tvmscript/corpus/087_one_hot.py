"""`R.one_hot(indices, on_value, off_value, depth, axis)` with prim-value on/off values
(`R.prim_value(1.0)`, ints), the default last axis and `axis=0`."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(i: R.Tensor((2, 3), "int32")) -> R.Tuple(R.Tensor((2, 3, 5), "float32"), R.Tensor((4, 2, 3), "int64")):
        a = R.one_hot(i, R.prim_value(T.float32(1.0)), R.prim_value(T.float32(0.0)), 5)
        b = R.one_hot(i, R.prim_value(T.int64(7)), R.prim_value(T.int64(-1)), depth=4, axis=0)
        return (a, b)
