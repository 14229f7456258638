"""`R.Tuple` annotations, nested and empty, on parameters, bindings and the result; tuple
construction and `t[i]` indexing of nested tuples."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32"), y: R.Tensor((3,), "int32")) -> R.Tuple(
        R.Tensor((2,), "float32"), R.Tuple(R.Tensor((3,), "int32"), R.Tuple)
    ):
        empty: R.Tuple = R.tuple()
        inner: R.Tuple(R.Tensor((3,), "int32"), R.Tuple) = (y, empty)
        outer: R.Tuple(R.Tensor((2,), "float32"), R.Tuple(R.Tensor((3,), "int32"), R.Tuple)) = (
            x,
            inner,
        )
        a = outer[1]
        b = a[0]
        c = R.add(b, b)
        d = outer[0]
        result = (d, (c, empty))
        return result
